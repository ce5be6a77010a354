import { useChats } from '../../features/chats/useChats';
import { useConnectionsAlert } from '../../features/connections/useConnections';

/**
 * Badges of the side menu. The connections '!' (spec 1 §4: any connection in qrcode, PAIRING, DISCONNECTED,
 * TIMEOUT or OPENING, checked 2 s after the list changes); the internal chat's dot while the caller has
 * unread chat messages in any of its chats (the top bar's total, GET /chats/unreads, shared through the query cache).
 */
export const useMenuBadges = () => ({ connections: useConnectionsAlert(), chats: useChats().unreads > 0 });

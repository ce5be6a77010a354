import { useChats } from '../../features/chats/useChats';
import { useConnectionsAlert } from '../../features/connections/useConnections';

/**
 * Badges of the side menu. The connections '!' (spec 1 §4: any connection in qrcode, PAIRING, DISCONNECTED,
 * TIMEOUT or OPENING, checked 2 s after the list changes); the internal chat's dot while the caller has
 * unread chat messages (the same list as the top bar's chats, so no request of its own).
 */
export const useMenuBadges = () => ({ connections: useConnectionsAlert(), chats: useChats().unreads > 0 });

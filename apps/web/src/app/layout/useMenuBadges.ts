import { useConnectionsAlert } from '../../features/connections/useConnections';

/**
 * Badges of the side menu. The connections '!' (spec 1 §4: any connection in qrcode, PAIRING, DISCONNECTED,
 * TIMEOUT or OPENING, checked 2 s after the list changes); the internal chat dot arrives with that feature.
 */
export const useMenuBadges = () => ({ connections: useConnectionsAlert(), chats: false });

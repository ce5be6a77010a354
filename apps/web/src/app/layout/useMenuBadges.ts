/**
 * Badges of the side menu. The connections '!' (spec 1 §4: any connection in qrcode, PAIRING, DISCONNECTED,
 * TIMEOUT or OPENING, checked 2 s after the list changes) and the internal chat dot arrive with those features;
 * until then nothing needs attention.
 */
export const useMenuBadges = () => ({ connections: false, chats: false });

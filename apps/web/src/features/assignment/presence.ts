/** how a user shows to colleagues: a socket open and not paused, paused ("away"), or no socket */
export type TPresence = 'available' | 'away' | 'offline';

export const presenceOf = (user: { online: boolean; away?: boolean }): TPresence =>
  !user.online ? 'offline' : user.away ? 'away' : 'available';

/** the dot's colour (theme palette keys) */
export const PRESENCE_COLOR: Record<TPresence, 'success.main' | 'warning.main' | 'text.disabled'> = {
  available: 'success.main',
  away: 'warning.main',
  offline: 'text.disabled',
};

const AVATAR_COLORS = ['#00a884', '#7c4dff', '#f4511e', '#039be5', '#c2185b', '#6d4c41', '#43a047', '#fb8c00'];

/** A simulated customer's avatar colour, fixed by their number. */
export const avatarColor = (number: string) =>
  AVATAR_COLORS[[...number].reduce((acc, ch) => acc + ch.charCodeAt(0), 0) % AVATAR_COLORS.length];

/** Up to two initials of a name. */
export const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]?.toUpperCase())
    .join('') || '?';

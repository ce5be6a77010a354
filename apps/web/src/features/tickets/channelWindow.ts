import type { TChannelWindow } from '@zelo/shared';

export type TWindowState = { state: 'none' } | { state: 'closed' } | { state: 'open'; msLeft: number | null };

/**
 * What the composer shows for a ticket's customer-service window (Cloud API, issue 4): nothing when no window
 * applies (or the server has no answer), closed, or open with the time left — closed too once the time is up.
 */
export const windowState = (window: TChannelWindow | null | undefined, now = Date.now()): TWindowState => {
  if (!window?.applies) {
    return { state: 'none' };
  }
  const expires = window.expiresAt ? new Date(window.expiresAt).getTime() : Number.NaN;
  const msLeft = Number.isNaN(expires) ? null : expires - now;
  if (!window.open || (msLeft !== null && msLeft <= 0)) {
    return { state: 'closed' };
  }

  return { state: 'open', msLeft };
};

/** The time left as 'HHh MMm' (spec 1 §9), or 'MMm' under an hour; never below 1 minute while open. */
export const formatTimeLeft = (ms: number): string => {
  const minutes = Math.max(1, Math.floor(ms / 60_000));
  const hours = Math.floor(minutes / 60);
  const rest = String(minutes % 60).padStart(2, '0');

  return hours > 0 ? `${String(hours).padStart(2, '0')}h ${rest}m` : `${rest}m`;
};

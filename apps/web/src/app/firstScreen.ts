/**
 * "The first screen has shown": what the app fetches for later (the realtime client, the fallback language's texts)
 * waits for it, so the first screen's own requests have the network to themselves (issue 23's inbox budget). The
 * inbox, the screen agents open first, says so when its first list (or its error) has shown, and is waited for
 * `INBOX_FIRST_LIST_WAIT_MS` at most; on any other screen the wait is over at once.
 */

/** the inbox waits this long at most for its first list before later work takes the network anyway */
export const INBOX_FIRST_LIST_WAIT_MS = 3_000;

let resolveInboxListShown: () => void = () => undefined;
const inboxListShown = new Promise<void>((resolve) => {
  resolveInboxListShown = resolve;
});

/** the inbox shows its first list (or its error) */
export const markInboxListShown = () => resolveInboxListShown();

/** resolves once the first screen has shown */
export const afterFirstScreen = (): Promise<void> => {
  if (typeof location === 'undefined' || !location.pathname.startsWith('/tickets')) {
    return Promise.resolve();
  }

  return Promise.race([inboxListShown, new Promise<void>((resolve) => setTimeout(resolve, INBOX_FIRST_LIST_WAIT_MS))]);
};

import { AppError } from '../../http/errors';

/**
 * The one pairing-code request a session may have waiting for its socket to reach WhatsApp: answered
 * with the code, or refused (socket closed, session stopped, a newer request, `waitMs` gone by).
 */
export const createPairingWaiter = () => {
  let pending: { resolve: (code: string) => void; reject: (err: AppError) => void } | undefined;

  const settle = (outcome: { code: string } | { error: AppError }) => {
    const waiter = pending;
    pending = undefined;
    if (!waiter) return;
    if ('code' in outcome) waiter.resolve(outcome.code);
    else waiter.reject(outcome.error);
  };

  const wait = (waitMs: number) =>
    new Promise<string>((resolve, reject) => {
      settle({ error: new AppError('ERR_CONFLICT', 'A newer pairing request replaced this one') });
      const timer = setTimeout(() => {
        if (pending !== mine) return;
        pending = undefined;
        reject(new AppError('ERR_WAPP_NOT_INITIALIZED', 'WhatsApp could not be reached; try again in a moment'));
      }, waitMs);
      timer.unref?.();
      const mine = {
        resolve: (code: string) => {
          clearTimeout(timer);
          resolve(code);
        },
        reject: (err: AppError) => {
          clearTimeout(timer);
          reject(err);
        },
      };
      pending = mine;
    });

  return { wait, settle };
};

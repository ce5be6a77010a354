import { MESSAGE_BODY_MAX } from '@zelo/shared';
import { signBody } from './messageLogic';

/**
 * The composer's length rule, told before sending: what is counted is what would be sent (trimmed, with the
 * signature when signing is on), against the server's limit. The counter shows from 90 % of it; over it the
 * send button is off and the text stays in the composer.
 */
export type TComposerLimit = { count: number; max: number; warn: boolean; over: boolean };

export const composerLimit = (text: string, userName: string, sign: boolean, max = MESSAGE_BODY_MAX) => {
  const count = text.trim() ? signBody(text.trim(), userName, sign).length : 0;

  return { count, max, warn: count >= Math.floor(max * 0.9), over: count > max } satisfies TComposerLimit;
};

/** A send refused for what it holds (a 4xx validation answer): the text goes back into an empty composer. */
export const keepsTextAfter = (status: number | undefined) => status === 400 || status === 413 || status === 422;

/** The words under the input: the count near the limit, what to do over it. */
export const composerLimitText = (
  t: (key: string, values?: Record<string, unknown>) => string,
  limit: TComposerLimit,
) =>
  t(limit.over ? 'tickets.composer.limitOver' : 'tickets.composer.limitNear', {
    count: limit.count.toLocaleString(),
    max: limit.max.toLocaleString(),
  });

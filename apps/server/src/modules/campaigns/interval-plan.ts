/**
 * The interval plan of a campaign (issue 12 item 5, reference §4.3 "intended semantics"): computed up front, one
 * planned send time per recipient, cumulative from the start. Each send waits a random 0…messageInterval seconds
 * after the previous one, and after every `longerIntervalAfter` sends (0 = never) a further `greaterInterval`
 * seconds. The clock and the random source are injected so the plan can be tested exactly.
 */
export type TIntervalSettings = { messageInterval: number; longerIntervalAfter: number; greaterInterval: number };

export type TPlanInput = {
  count: number;
  start: Date;
  settings: TIntervalSettings;
  /** uniform in [0, 1); Math.random by default */
  random?: () => number;
};

/** milliseconds after `start` of each send, in order */
export const planOffsets = ({ count, settings, random = Math.random }: Omit<TPlanInput, 'start'>): number[] => {
  const offsets = new Array<number>(count);
  const step = Math.max(0, settings.messageInterval) * 1000;
  const every = Math.max(0, Math.floor(settings.longerIntervalAfter));
  const longer = Math.max(0, settings.greaterInterval) * 1000;
  let at = 0;
  for (let i = 0; i < count; i++) {
    if (step > 0) at += Math.floor(random() * step);
    if (every > 0 && i > 0 && i % every === 0) at += longer;
    offsets[i] = at;
  }

  return offsets;
};

export const planSendTimes = (input: TPlanInput): Date[] => {
  const base = input.start.getTime();

  return planOffsets(input).map((offset) => new Date(base + offset));
};

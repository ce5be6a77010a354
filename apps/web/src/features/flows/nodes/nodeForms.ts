import {
  FLOW_INTERVAL_MAX,
  FLOW_INTERVAL_MIN,
  FLOW_RANDOMIZER_STEP,
  DEFAULT_PROMPT_MODEL,
  FLOW_VOICES,
  V,
  zBaseUrl,
  zFlowAnswerKey,
} from '@zelo/shared';
import { z } from 'zod';

/*
 * The node dialogs' forms (spec 3 §2.9, §5) and how each turns into the node's `data` as the ancestor's editor
 * stores it (spec 3 §3), so a flow drawn here runs on the ancestor's shape and one drawn there opens here.
 * Messages are i18n keys read as `validation.<key>`.
 */

export const INTERVAL_MIN = FLOW_INTERVAL_MIN;
export const INTERVAL_MAX = FLOW_INTERVAL_MAX;
export const RANDOMIZER_STEP = FLOW_RANDOMIZER_STEP;
export const VOICES = FLOW_VOICES;
/** spec 3 §3 defaults of the OpenAI node */
export const OPENAI_DEFAULTS = {
  voice: 'texto',
  temperature: 1,
  maxTokens: 100,
  maxMessages: 10,
  model: DEFAULT_PROMPT_MODEL,
};
export const TYPEBOT_DEFAULTS = { typebotExpires: 1, typebotDelayMessage: 1000 };

const required = (max = 4000) => z.string({ error: V.required }).trim().min(1, V.required).max(max, V.tooLong);
const optionalText = (max = 500) =>
  z
    .string()
    .max(max, V.tooLong)
    .optional()
    .transform((v) => v?.trim() ?? '');
/** a number typed in a field (a string) or already a number; empty is `fallback` */
const typedNumber = (fallback: number, min: number, max: number, int = false) =>
  z.preprocess(
    (v) => (v === '' || v === undefined || v === null ? fallback : Number(v)),
    (int ? z.number({ error: V.invalid }).int(V.invalid) : z.number({ error: V.invalid }))
      .min(min, V.invalid)
      .max(max, V.invalid),
  );

export const ZMessageForm = z.object({ text: required() });
export type TMessageForm = z.infer<typeof ZMessageForm>;

export const ZMenuForm = z.object({
  message: required(),
  options: z.array(z.object({ value: required(200) })).min(1, 'flowOptionRequired'),
});
export type TMenuForm = z.infer<typeof ZMenuForm>;
/** the menu node's data: options numbered from 1, each edge leaves from handle `a<number>` */
export const menuData = (form: TMenuForm) => ({
  message: form.message,
  arrayOption: form.options.map((o, i) => ({ number: i + 1, value: o.value })),
});
export const menuHandle = (number: number | string) => `a${number}`;

export const ZIntervalForm = z.object({
  sec: z.preprocess(
    (v) => (v === '' || v === undefined || v === null ? 0 : Number(v)),
    z
      .number({ error: 'flowIntervalMin' })
      .int('flowIntervalMin')
      .min(INTERVAL_MIN, 'flowIntervalMin')
      .max(INTERVAL_MAX, 'flowIntervalMax'),
  ),
});
export const intervalData = (sec: number) => ({ label: `Intervalo ${sec} seg.`, sec });
/** a content card's interval: 1 to 120 */
export const isValidInterval = (value: unknown) => {
  const sec = Number(value);

  return Number.isInteger(sec) && sec >= INTERVAL_MIN && sec <= INTERVAL_MAX;
};

export const ZRandomizerForm = z.object({ percent: typedNumber(50, 0, 100, true) });

export const ZTicketForm = z.object({
  queueId: z.preprocess(
    (v) => (v === '' || v == null ? undefined : Number(v)),
    z.number({ error: 'flowQueueRequired' }),
  ),
});

export const ZTypebotForm = z.object({
  name: required(100),
  urlN8N: required(500),
  typebotSlug: required(200),
  typebotExpires: typedNumber(TYPEBOT_DEFAULTS.typebotExpires, 0, 100_000, true),
  typebotDelayMessage: typedNumber(TYPEBOT_DEFAULTS.typebotDelayMessage, 0, 60_000, true),
  typebotKeywordFinish: optionalText(),
  typebotKeywordRestart: optionalText(),
  typebotUnknownMessage: optionalText(2000),
  typebotRestartMessage: optionalText(2000),
});
export type TTypebotForm = z.infer<typeof ZTypebotForm>;

export const ZOpenAiForm = z.object({
  name: required(100),
  apiKey: required(500),
  /** any OpenAI-compatible API, as the prompts take it; empty = OpenAI's */
  baseUrl: zBaseUrl.optional(),
  /** the model's id (free text; the prompts' suggestions offered) */
  model: z.string().trim().max(100, V.tooLong).optional(),
  prompt: required(20_000),
  voice: z.enum(VOICES).default('texto'),
  voiceKey: optionalText(),
  voiceRegion: optionalText(100),
  temperature: typedNumber(OPENAI_DEFAULTS.temperature, 0, 2),
  maxTokens: typedNumber(OPENAI_DEFAULTS.maxTokens, 1, 100_000, true),
  maxMessages: typedNumber(OPENAI_DEFAULTS.maxMessages, 1, 1000, true),
});
export type TOpenAiForm = z.infer<typeof ZOpenAiForm>;
/** the OpenAI node's data: its settings under `typebotIntegration`, projectName copied from the name */
export const openAiData = (form: TOpenAiForm, queueId: unknown) => ({
  typebotIntegration: { ...form, projectName: form.name, ...(queueId != null ? { queueId } : {}) },
});

export const ZQuestionForm = z.object({
  message: required(),
  answerKey: zFlowAnswerKey,
});
export type TQuestionForm = z.infer<typeof ZQuestionForm>;
export const questionData = (form: TQuestionForm) => ({ typebotIntegration: { ...form } });

/** A field of a node's data read as text (the ancestor stored numbers as strings now and then). */
export const text = (value: unknown) => (value === undefined || value === null ? '' : String(value));
/** `data.typebotIntegration` of typebot, openai and question nodes */
export const integrationOf = (data: Record<string, unknown> | null | undefined) =>
  ((data?.typebotIntegration ?? {}) as Record<string, unknown>) ?? {};

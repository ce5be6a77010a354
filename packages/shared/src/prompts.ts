import { z } from 'zod';
import { V, zId, zName, zNumeric } from './common.js';

/**
 * AI prompts (spec 3 §2.3, §3, §5, §7): an assistant answering a connection's or a queue's customers through
 * any OpenAI-compatible API (`baseUrl`; none = OpenAI's). The API key and the voice key are stored sealed and
 * read back masked (`sk-••••••1234`): a masked value sent back keeps the stored one.
 */

/** the spec's model options (value, label); the model itself is free text */
export const PROMPT_MODELS = [
  { value: 'gpt-3.5-turbo-1106', label: 'GPT 3.5 turbo' },
  { value: 'gpt-4o-mini', label: 'GPT 4.0' },
] as const;
export const DEFAULT_PROMPT_MODEL = 'gpt-3.5-turbo-1106';

/**
 * The model id an API takes, from what a form may have sent or an older row may hold: a suggestion's display
 * text ("GPT 4.0 (gpt-4o-mini)") or a known label alone ("GPT 4.0") becomes its id; anything else is kept as
 * typed (free text: a local model, a proxy's name).
 */
export const promptModelId = (model: string): string => {
  const value = model.trim();
  const byLabel = PROMPT_MODELS.find((m) => m.label.toLowerCase() === value.toLowerCase());
  if (byLabel) return byLabel.value;
  const shown = /^(.+?)\s*\(([^()]+)\)$/.exec(value);
  if (!shown?.[1] || !shown[2]) return value;
  const label = shown[1].trim().toLowerCase();
  const id = shown[2].trim();
  const known = PROMPT_MODELS.some((m) => m.value === id || m.label.toLowerCase() === label);

  return known ? id : value;
};

/** `texto` = text replies; otherwise one of the 15 pt-BR Azure neural voices (spec 3 §3) */
export const AI_VOICES = [
  'texto',
  'pt-BR-FranciscaNeural',
  'pt-BR-AntonioNeural',
  'pt-BR-BrendaNeural',
  'pt-BR-DonatoNeural',
  'pt-BR-ElzaNeural',
  'pt-BR-FabioNeural',
  'pt-BR-GiovannaNeural',
  'pt-BR-HumbertoNeural',
  'pt-BR-JulioNeural',
  'pt-BR-LeilaNeural',
  'pt-BR-LeticiaNeural',
  'pt-BR-ManuelaNeural',
  'pt-BR-NicolauNeural',
  'pt-BR-ValerioNeural',
  'pt-BR-YaraNeural',
] as const;
export type TAiVoice = (typeof AI_VOICES)[number];

/** spec 3 §9 */
export const PROMPT_LIMITS = {
  nameMin: 5,
  nameMax: 100,
  promptMin: 50,
  promptMax: 20000,
  maxTokensMax: 100000,
  maxMessagesMax: 100,
  defaults: { maxTokens: 100, temperature: 1, maxMessages: 10 },
} as const;

/** the phrase the AI starts its answer with when a human must take over; stripped from what is sent */
export const AI_HANDOVER_PHRASE = 'Ação: Transferir para o setor de atendimento';

/** an http(s) URL, or nothing (`""`/null: the official API) */
export const zBaseUrl = z
  .union([
    z.literal('').transform(() => null),
    z.null(),
    z
      .string()
      .trim()
      .max(500, V.tooLong)
      .regex(/^https?:\/\/[^\s]+$/i, V.invalid)
      .refine((v) => URL.canParse(v), V.invalid),
  ])
  .transform((v) => (v ? v.replace(/\/+$/, '') : null));

const zModel = z.string({ error: V.required }).trim().min(1, V.required).max(100, V.tooLong).transform(promptModelId);
const zSecret = z.string({ error: V.required }).trim().max(2000, V.tooLong);

export const ZPromptBody = z.object({
  name: zName(PROMPT_LIMITS.nameMin, PROMPT_LIMITS.nameMax),
  prompt: z
    .string({ error: V.required })
    .trim()
    .min(1, V.required)
    .min(PROMPT_LIMITS.promptMin, V.tooShort)
    .max(PROMPT_LIMITS.promptMax, V.tooLong),
  model: zModel.default(DEFAULT_PROMPT_MODEL),
  maxTokens: zNumeric(z.number().int(V.invalid).min(1, V.invalid).max(PROMPT_LIMITS.maxTokensMax, V.invalid)),
  temperature: zNumeric(z.number().min(0, V.invalid).max(1, V.invalid)),
  /** required on create; on update a masked value (or none) keeps the stored key */
  apiKey: zSecret.min(1, V.required),
  /** the sector the ticket moves to on handover: none chosen says so (`sectorRequired`), not "invalid" */
  queueId: z
    .unknown()
    .refine((v) => v !== '' && v !== null && v !== undefined, V.sectorRequired)
    .pipe(zId),
  maxMessages: zNumeric(z.number().int(V.invalid).min(0, V.invalid).max(PROMPT_LIMITS.maxMessagesMax, V.invalid)),
  baseUrl: zBaseUrl.optional(),
  voice: z.enum(AI_VOICES, { error: V.invalid }).default('texto'),
  voiceKey: zSecret.optional(),
  voiceRegion: z
    .string()
    .trim()
    .max(50, V.tooLong)
    .regex(/^[a-z0-9-]*$/i, V.invalid)
    .optional(),
});
export type TPromptBody = z.input<typeof ZPromptBody>;
export type TPromptInput = z.output<typeof ZPromptBody>;

/** PUT /prompt/:id: the ancestor's form sends the whole record back; what is left out stays */
export const ZPromptUpdateBody = ZPromptBody.partial().extend({
  apiKey: zSecret.optional(),
});
export type TPromptUpdateInput = z.output<typeof ZPromptUpdateBody>;

export const ZPrompt = z.object({
  id: z.number(),
  name: z.string(),
  prompt: z.string(),
  model: z.string(),
  maxTokens: z.number(),
  temperature: z.number(),
  /** masked */
  apiKey: z.string(),
  baseUrl: z.string().nullable(),
  queueId: z.number().nullable(),
  queue: z.object({ id: z.number(), name: z.string() }).nullable(),
  maxMessages: z.number(),
  voice: z.string(),
  /** masked */
  voiceKey: z.string(),
  voiceRegion: z.string(),
  promptTokens: z.number(),
  completionTokens: z.number(),
  totalTokens: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TPrompt = z.infer<typeof ZPrompt>;

export const ZPromptList = z.object({ prompts: z.array(ZPrompt), count: z.number(), hasMore: z.boolean() });

/**
 * GET /prompt/models: the spec's models, plus the base URL's `/models` when it answers. A key typed in the
 * form (not yet saved) travels in the `x-ai-key` header, never in the URL.
 */
export const AI_KEY_HEADER = 'x-ai-key';
export const ZPromptModelsQuery = z.object({
  baseUrl: zBaseUrl.optional(),
  /** a saved prompt whose stored key (and base URL, when none is given) is used */
  promptId: zId.optional(),
});
export const ZPromptModels = z.object({
  models: z.array(z.object({ value: z.string(), label: z.string() })),
  /** the base URL answered its /models */
  fromServer: z.boolean(),
});
export type TPromptModels = z.infer<typeof ZPromptModels>;

/** `company-{id}-prompt`: `{action: 'create'|'update', prompt}` or `{action: 'delete', promptId}` */
export type TPromptEvent = { action: 'create' | 'update'; prompt: TPrompt } | { action: 'delete'; promptId: number };

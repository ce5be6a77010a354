import { z } from 'zod';
import { V, zBool, zId, zIdOrNone, zName, zNumeric, zPageNumber } from './common.js';

/*
 * The flow builder (spec 3 §2.7–§2.9, §3–§5, §7; issue 14 items 3–6): the flow document the editor saves (the
 * ancestor's React-Flow JSON `{nodes, connections}`, so its flows import unchanged), the flow list, phrase
 * campaigns (`/flowcampaign`), uploads, the test run and the realtime step of a run.
 * The API contract between the server (`modules/flows`) and the web screens; routes in docs: flow-contract.md.
 */

/** spec 3 §2.8: node types the editor renders (`condition` is created programmatically only) */
export const FLOW_NODE_TYPES = [
  'start',
  'message',
  'menu',
  'interval',
  'img',
  'audio',
  'video',
  'randomizer',
  'singleBlock',
  'ticket',
  'typebot',
  'openai',
  'question',
  'condition',
] as const;
export type TFlowNodeType = (typeof FLOW_NODE_TYPES)[number];

/** content (singleBlock) card types */
export const FLOW_CONTENT_ELEMENT_TYPES = ['message', 'interval', 'img', 'audio', 'video'] as const;
export type TFlowContentElementType = (typeof FLOW_CONTENT_ELEMENT_TYPES)[number];

/** spec 3 §3 / §9 */
export const FLOW_START_NODE_ID = '1';
export const FLOW_START_LABEL = 'Inicio do fluxo';
export const FLOW_START_POSITION = { x: 250, y: 100 } as const;
export const FLOW_NODE_ID_LENGTH = 30;
export const FLOW_DUPLICATE_OFFSET = 240;
export const FLOW_NEW_NODE_GAP = 40;
export const FLOW_INTERVAL_MIN = 1;
export const FLOW_INTERVAL_MAX = 120;
export const FLOW_RANDOMIZER_STEP = 10;
export const FLOW_NAME_MIN = 2;
export const FLOW_NAME_MAX = 50;
/** the largest document the server stores */
export const FLOW_MAX_NODES = 500;
export const FLOW_MAX_CONNECTIONS = 2000;
export const FLOW_TEXT_MAX = 4096;
/** an unknown menu answer repeats the menu this many times, then the ticket goes to the connection's queues */
export const FLOW_MENU_MAX_RETRIES = 3;
/** rows per page of the flow list */
export const FLOW_PAGE_SIZE = 40;

/** spec 3 §5: upload limits by kind (bytes) and the accepted extensions; video is MP4 only */
export const FLOW_UPLOAD_KINDS = ['image', 'audio', 'video'] as const;
export type TFlowUploadKind = (typeof FLOW_UPLOAD_KINDS)[number];
export const FLOW_UPLOAD_LIMITS: Record<TFlowUploadKind, number> = {
  image: 2 * 1024 * 1024,
  audio: 5 * 1024 * 1024,
  video: 20 * 1024 * 1024,
};
export const FLOW_UPLOAD_EXTENSIONS: Record<TFlowUploadKind, readonly string[]> = {
  image: ['png', 'jpg', 'jpeg'],
  audio: ['ogg', 'mp3', 'opus'],
  video: ['mp4'],
};
/** spec 3 §5: images are compressed to this JPEG quality in the browser before upload */
export const FLOW_IMAGE_QUALITY = 0.7;

/** spec 3 §3: the OpenAI node's voices (`texto` = text replies) */
export const FLOW_VOICES = [
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

/* ---------------------------------------------------------------- the document */

const zText = (max = FLOW_TEXT_MAX) => z.string({ error: V.invalid }).max(max, V.tooLong);
/** text the ancestor sometimes stores as a number (an interval typed in a field) */
const zTextOrNumber = z.union([z.string().max(FLOW_TEXT_MAX, V.tooLong), z.number()], { error: V.invalid });
const zOptText = (max = FLOW_TEXT_MAX) => z.union([zText(max), z.null()]).optional();
const zInterval = zNumeric(
  z.number().int(V.invalid).min(FLOW_INTERVAL_MIN, V.invalid).max(FLOW_INTERVAL_MAX, V.tooLong),
);
/** a file name the upload routes answered (no path) or an absolute http(s) URL of an earlier import */
const zMediaRef = z
  .string({ error: V.required })
  .trim()
  .min(1, V.required)
  .max(1000, V.tooLong)
  .refine((s) => !s.includes('..') && !s.includes('\\'), V.invalid);

export const zFlowNodeId = z
  .string({ error: V.invalid })
  .min(1, V.required)
  .max(100, V.tooLong)
  .regex(/^[\w.:-]+$/, V.invalid);

/** a variable name a question node stores its answer under (filled as `{{answerKey}}`) */
export const zFlowAnswerKey = z
  .string({ error: V.required })
  .trim()
  .min(1, V.required)
  .max(50, V.tooLong)
  .regex(/^[\p{L}\p{N}_]+$/u, V.invalid);

export const ZFlowMenuOption = z.looseObject({
  number: zNumeric(z.number().int(V.invalid).min(0, V.invalid).max(1000, V.invalid)),
  value: zText(1000),
});

export const ZFlowContentElement = z.looseObject({
  type: z.enum(FLOW_CONTENT_ELEMENT_TYPES, { error: V.invalid }),
  /** message text, interval seconds, or the stored file name of a media card */
  value: zTextOrNumber,
  /** the id in `seq` (e.g. `message0`, `img2`) */
  number: z.string({ error: V.invalid }).max(100, V.tooLong),
  /** media: the original file name */
  original: zOptText(255),
  /** audio: send as a recorded voice note */
  record: zBool.optional(),
});

/** settings of the OpenAI node (the ancestor keeps them under `typebotIntegration`); apiKey/voiceKey are secrets */
export const ZFlowOpenAiSettings = z.looseObject({
  name: zText(100).optional(),
  projectName: zOptText(100),
  apiKey: zText(500).optional(),
  prompt: zText(20000).optional(),
  model: zOptText(100),
  /** an OpenAI-compatible base URL (issue 14 item 1); empty = the official API */
  baseUrl: zOptText(500),
  voice: zOptText(50),
  voiceKey: zOptText(500),
  voiceRegion: zOptText(50),
  temperature: z.union([zNumeric(z.number().min(0, V.invalid).max(2, V.invalid)), z.literal(''), z.null()]).optional(),
  maxTokens: z
    .union([zNumeric(z.number().int(V.invalid).min(1, V.invalid).max(100000)), z.literal(''), z.null()])
    .optional(),
  maxMessages: z
    .union([zNumeric(z.number().int(V.invalid).min(0, V.invalid).max(1000)), z.literal(''), z.null()])
    .optional(),
  queueId: zIdOrNone.optional(),
});
export type TFlowOpenAiSettings = z.infer<typeof ZFlowOpenAiSettings>;

/** settings of the Typebot node (the integration fields) */
export const ZFlowTypebotSettings = z.looseObject({
  name: zOptText(100),
  urlN8N: zOptText(500),
  typebotSlug: zOptText(255),
  typebotExpires: z.union([zNumeric(z.number().int().min(0).max(100000)), z.literal(''), z.null()]).optional(),
  typebotDelayMessage: z.union([zNumeric(z.number().int().min(0).max(60000)), z.literal(''), z.null()]).optional(),
  typebotKeywordFinish: zOptText(100),
  typebotKeywordRestart: zOptText(100),
  typebotRestartMessage: zOptText(),
  typebotUnknownMessage: zOptText(),
});
export type TFlowTypebotSettings = z.infer<typeof ZFlowTypebotSettings>;

export const ZFlowQuestionSettings = z.looseObject({
  message: zText().min(1, V.required),
  answerKey: zFlowAnswerKey,
});

/** `data` by node type; unknown keys are kept (lenient), known ones are checked */
export const FLOW_NODE_DATA = {
  start: z.looseObject({ label: zOptText(200) }),
  message: z.looseObject({ label: zText() }),
  menu: z.looseObject({
    message: zText(),
    arrayOption: z.array(ZFlowMenuOption, { error: V.invalid }).max(100, V.tooLong),
  }),
  interval: z.looseObject({ label: zOptText(200), sec: zInterval }),
  img: z.looseObject({ url: zMediaRef }),
  audio: z.looseObject({ url: zMediaRef, record: zBool.optional() }),
  video: z.looseObject({ url: zMediaRef, record: zBool.optional() }),
  randomizer: z.looseObject({
    percent: zNumeric(z.number().min(0, V.invalid).max(100, V.invalid)),
  }),
  singleBlock: z.looseObject({
    seq: z.array(z.string({ error: V.invalid }).max(100, V.tooLong)).max(200, V.tooLong),
    elements: z.array(ZFlowContentElement, { error: V.invalid }).max(200, V.tooLong),
  }),
  /** the ancestor stores the chosen queue object under `data.data` */
  ticket: z.looseObject({
    data: z.looseObject({ id: zId, name: zOptText(200) }, { error: V.required }),
  }),
  typebot: z.looseObject({ typebotIntegration: ZFlowTypebotSettings }),
  openai: z.looseObject({ typebotIntegration: ZFlowOpenAiSettings }),
  question: z.looseObject({ typebotIntegration: ZFlowQuestionSettings }),
  /** compares variable `key` with `value` (`condition`: equals, contains, …) and follows handle `a` (true) / `b` */
  condition: z.looseObject({
    key: zOptText(100),
    condition: z.union([zText(50), z.number()]).optional(),
    value: z.union([zText(1000), z.number()]).optional(),
  }),
} as const satisfies Record<TFlowNodeType, z.ZodType>;

const zPosition = z.looseObject({
  x: z.number({ error: V.invalid }).finite(V.invalid),
  y: z.number({ error: V.invalid }).finite(V.invalid),
});

const nodeOf = <T extends TFlowNodeType>(type: T) =>
  z.looseObject({
    id: zFlowNodeId,
    type: z.literal(type),
    position: zPosition,
    data: FLOW_NODE_DATA[type],
  });

export const ZFlowNode = z.discriminatedUnion(
  'type',
  [
    nodeOf('start'),
    nodeOf('message'),
    nodeOf('menu'),
    nodeOf('interval'),
    nodeOf('img'),
    nodeOf('audio'),
    nodeOf('video'),
    nodeOf('randomizer'),
    nodeOf('singleBlock'),
    nodeOf('ticket'),
    nodeOf('typebot'),
    nodeOf('openai'),
    nodeOf('question'),
    nodeOf('condition'),
  ],
  { error: V.invalid },
);
export type TFlowNode = z.infer<typeof ZFlowNode>;

/** an edge; menu edges leave by handle `a<option number>`, randomizer and condition edges by `a` / `b` */
export const ZFlowConnection = z.looseObject({
  id: z.string().max(300, V.tooLong).optional(),
  source: zFlowNodeId,
  target: zFlowNodeId,
  sourceHandle: z.union([z.string().max(100, V.tooLong), z.null()]).optional(),
  targetHandle: z.union([z.string().max(100, V.tooLong), z.null()]).optional(),
});
export type TFlowConnection = z.infer<typeof ZFlowConnection>;

export const ZFlowDocument = z.object({
  nodes: z.array(ZFlowNode, { error: V.invalid }).max(FLOW_MAX_NODES, V.tooLong),
  connections: z.array(ZFlowConnection, { error: V.invalid }).max(FLOW_MAX_CONNECTIONS, V.tooLong).default([]),
});
export type TFlowDocument = z.infer<typeof ZFlowDocument>;

/** what is wrong with a document's graph; the server answers the first as ERR_FLOW_START_NODE / ERR_FLOW_GRAPH */
export type TFlowGraphProblem = {
  code: 'ERR_FLOW_START_NODE' | 'ERR_FLOW_GRAPH';
  path: string;
  message: string;
};

/**
 * exactly one start node, node ids unique, every edge's source and target an existing node (an empty document
 * — a new flow never drawn — is fine)
 */
export const flowGraphProblems = (doc: TFlowDocument): TFlowGraphProblem[] => {
  const problems: TFlowGraphProblem[] = [];
  if (doc.nodes.length === 0) return problems;
  const starts = doc.nodes.filter((n) => n.type === 'start');
  if (starts.length !== 1) {
    problems.push({ code: 'ERR_FLOW_START_NODE', path: 'nodes', message: `${starts.length} start nodes` });
  }
  const ids = new Set<string>();
  doc.nodes.forEach((n, i) => {
    if (ids.has(n.id)) problems.push({ code: 'ERR_FLOW_GRAPH', path: `nodes.${i}.id`, message: 'duplicated id' });
    ids.add(n.id);
  });
  doc.connections.forEach((c, i) => {
    if (!ids.has(c.source)) {
      problems.push({ code: 'ERR_FLOW_GRAPH', path: `connections.${i}.source`, message: 'unknown node' });
    }
    if (!ids.has(c.target)) {
      problems.push({ code: 'ERR_FLOW_GRAPH', path: `connections.${i}.target`, message: 'unknown node' });
    }
  });

  return problems;
};

/** the `{{variable}}` names a document's question nodes collect, in node order, without repeats */
export const flowVariables = (doc: Pick<TFlowDocument, 'nodes'>): string[] => [
  ...new Set(doc.nodes.flatMap((n) => (n.type === 'question' ? [n.data.typebotIntegration.answerKey.trim()] : []))),
];

/* ---------------------------------------------------------------- flows (list, CRUD) */

export const zFlowName = () => zName(FLOW_NAME_MIN, FLOW_NAME_MAX);

export const ZFlowListQuery = z.object({
  searchParam: z.string().trim().max(200).optional().default(''),
  pageNumber: zPageNumber,
});
export type TFlowListQuery = z.infer<typeof ZFlowListQuery>;

/** POST /flowbuilder */
export const ZFlowCreateBody = z.object({ name: zFlowName(), active: zBool.optional() });
export type TFlowCreateBody = z.infer<typeof ZFlowCreateBody>;

/** PUT /flowbuilder (the ancestor's rename: `{flowId, name}`); `active` toggles Ativo / Desativado */
export const ZFlowUpdateBody = z
  .object({ flowId: zId, name: zFlowName().optional(), active: zBool.optional() })
  .refine((b) => b.name !== undefined || b.active !== undefined, { message: V.required, path: ['name'] });
export type TFlowUpdateBody = z.infer<typeof ZFlowUpdateBody>;

/** POST /flowbuilder/duplicate */
export const ZFlowDuplicateBody = z.object({ flowId: zId });

/** POST /flowbuilder/flow: save the document */
export const ZFlowSaveBody = z.object({
  idFlow: zId,
  nodes: ZFlowDocument.shape.nodes,
  connections: ZFlowDocument.shape.connections,
});
export type TFlowSaveBody = z.infer<typeof ZFlowSaveBody>;

export type TFlowSummary = {
  id: number;
  companyId: number;
  userId: number | null;
  name: string;
  active: boolean;
  createdAt: string;
  updatedAt: string;
};

/** a flow with its document (secrets masked) and the variables its question nodes collect */
export type TFlowWithDocument = TFlowSummary & {
  flow: { nodes: Record<string, unknown>[]; connections: Record<string, unknown>[] } | null;
  variables: string[];
};

export type TFlowListAnswer = { flows: TFlowSummary[]; count: number; hasMore: boolean };

/* ---------------------------------------------------------------- uploads */

/** POST /flowbuilder/img | audio | video: one stored file */
export type TFlowUploadAnswer = {
  id: number;
  /** the stored file name, used as a node's `url` / a content card's `value` */
  name: string;
  /** the file name the user chose */
  original: string;
  kind: TFlowUploadKind;
  mime: string;
  size: number;
  /** where the browser fetches it (authenticated media path) */
  url: string;
};

/* ---------------------------------------------------------------- phrase campaigns */

const zPhrase = z.string({ error: V.required }).trim().min(1, V.required).max(255, V.tooLong);

/** POST /flowcampaign (create sends no status: active) */
export const ZFlowCampaignBody = z.object({
  name: zFlowName(),
  flowId: zId,
  whatsappId: zId,
  phrase: zPhrase,
  status: zBool.optional().default(true),
});
export type TFlowCampaignBody = z.infer<typeof ZFlowCampaignBody>;

/** PUT /flowcampaign: the ancestor sends the whole record with its `id` */
export const ZFlowCampaignUpdateBody = z.object({
  id: zId,
  name: zFlowName().optional(),
  flowId: zId.optional(),
  whatsappId: zId.optional(),
  phrase: zPhrase.optional(),
  status: zBool.optional(),
});
export type TFlowCampaignUpdateBody = z.infer<typeof ZFlowCampaignUpdateBody>;

export type TFlowCampaign = {
  id: number;
  companyId: number;
  userId: number | null;
  name: string;
  flowId: number;
  whatsappId: number | null;
  phrase: string;
  status: boolean;
  createdAt: string;
  updatedAt: string;
};

/** the permission the phrase delete needs (spec 3 §6) */
export const FLOW_CAMPAIGN_DELETE_PERMISSION = 'contacts-page:deleteContact';

/** normalises a phrase and a message for matching: case- and accent-insensitive, whole message, trimmed */
export const normalisePhrase = (s: string) =>
  s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();

/* ---------------------------------------------------------------- runs, test run, realtime */

export const FLOW_RUN_STATUSES = ['running', 'waiting', 'done', 'failed'] as const;
export type TFlowRunStatus = (typeof FLOW_RUN_STATUSES)[number];

/** POST /flowbuilder/:id/test-run: an optional name for the simulated customer */
export const ZFlowTestRunBody = z
  .object({ contactName: z.string().trim().min(1).max(80, V.tooLong).optional() })
  .optional()
  .default({});

export type TFlowTestRunAnswer = {
  runId: number;
  flowId: number;
  ticketId: number;
  contactId: number;
  connectionId: number;
  /** the simulated customer's number (the simulator's `from`) */
  contactNumber: string;
  contactName: string;
};

/** `company-{id}-flowrun` (admins): one executed node of a run, with the variables collected so far */
export type TFlowRunStepEvent = {
  runId: number;
  flowId: number;
  ticketId: number;
  /** the node just executed (or waiting on); null when the run ended without one (missing start) */
  nodeId: string | null;
  nodeType: TFlowNodeType | null;
  status: TFlowRunStatus;
  variables: Record<string, string>;
  /** why it failed or ended (`dangling-edge`, `no-start`, `step-cap`, `queue-deleted`, `menu-retries`, …) */
  reason?: string;
  at: string;
};

/** GET /flowbuilder/run/:id: a run and its step log */
export type TFlowRunAnswer = {
  run: {
    id: number;
    flowId: number;
    ticketId: number;
    status: TFlowRunStatus;
    nodeId: string | null;
    variables: Record<string, string>;
    test: boolean;
    createdAt: string;
    updatedAt: string;
  };
  steps: {
    nodeId: string | null;
    nodeType: string | null;
    status: TFlowRunStatus;
    reason: string | null;
    at: string;
  }[];
};

import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { defaultSheetWorkers, type TSheetLimits } from './lib/sheets/limits';
import type { TBudgetLimits } from './lib/tenant-budget';

/**
 * `rate,concurrency,serverConcurrency` (positive numbers) as a budget's limits, bursts of twice the rate; unset,
 * the default of the database in use (`BUDGET_DEFAULTS`)
 */
const zBudget = () =>
  z
    .string()
    .optional()
    .refine((v) => v === undefined || budgetPattern(v), {
      message: 'rate,concurrency,serverConcurrency (positive numbers)',
    })
    .transform((v) => (v === undefined ? undefined : budgetOf(v)));

const budgetPattern = (v: string) =>
  /^\s*\d+(\.\d+)?\s*,\s*\d+\s*,\s*\d+\s*$/.test(v) && !/(^|,)\s*0+(\.0+)?\s*(,|$)/.test(v);
const budgetOf = (v: string): TBudgetLimits => {
  const [ratePerSecond, concurrency, serverConcurrency] = v.split(',').map((n) => Number(n.trim())) as [
    number,
    number,
    number,
  ];

  return { ratePerSecond, burst: Math.max(1, ratePerSecond * 2), concurrency, serverConcurrency };
};

/**
 * Each company's share when unset: PGlite runs every statement of every company on one embedded engine, so a
 * company's flows get a smaller share there (a benchmark of one company's 50 looping flows against another's
 * inbound: bench/tenant-fairness.ts).
 */
const BUDGET_DEFAULTS = {
  postgres: { flows: '20,4,16', ai: '5,8,64', integrations: '10,8,64' },
  pglite: { flows: '5,2,4', ai: '2,4,16', integrations: '5,4,16' },
} as const;

/** the budgets a server runs with: the configured ones, else its database's defaults */
export const budgetLimits = (budgets: TConfig['budgets'], database: 'pglite' | 'postgres') => {
  const defaults = BUDGET_DEFAULTS[database];

  return {
    flows: budgets.flows ?? budgetOf(defaults.flows),
    ai: budgets.ai ?? budgetOf(defaults.ai),
    integrations: budgets.integrations ?? budgetOf(defaults.integrations),
  };
};

const ZEnv = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.string().url().optional(),
  REDIS_URL: z.string().url().optional(),
  /** the Socket.IO adapter's channel prefix: installations sharing one Redis keep apart with their own */
  REDIS_PREFIX: z.string().min(1).max(100).default('socket.io'),
  DATA_DIR: z.string().default('./data'),
  PUBLIC_URL: z.string().url().optional(),
  JWT_SECRET: z.string().min(16).optional(),
  JWT_REFRESH_SECRET: z.string().min(16).optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Zelo <no-reply@zelo.local>'),
  ADMIN_EMAIL: z.string().email().optional(),
  ADMIN_PASSWORD: z.string().min(5).optional(),
  FFMPEG_PATH: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** tests lift the rate limits explicitly */
  RATE_LIMITS: z.enum(['on', 'off']).default('on'),
  /**
   * whose X-Forwarded-For is believed (the client's IP keys the rate limits): `true`, `false`, or
   * addresses/ranges (proxy-addr's names allowed). By default only proxies on this machine or a private
   * network; a client reaching the server directly cannot choose its IP with the header.
   */
  TRUST_PROXY: z
    .string()
    .default('loopback,linklocal,uniquelocal')
    .transform((v): boolean | string => (v === 'true' ? true : v === 'false' ? false : v)),
  /** run pg-boss workers and periodic jobs in this process */
  JOBS: z.enum(['on', 'off']).default('on'),
  /** keep the ticket list's and the conversation page's answers until the company's next change (list-answers.ts) */
  LIST_ANSWERS: z.enum(['on', 'off']).default('on'),
  /** automatic assignment's net under its kicks: every company with an auto-assign queue is drained this often */
  AUTO_ASSIGN_SWEEP_MS: z.coerce.number().int().min(100).default(30_000),
  /** bcrypt's cost for the passwords hashed from now on (2^n rounds); stored hashes keep their own */
  PASSWORD_HASH_ROUNDS: z.coerce.number().int().min(4).max(15).default(10),
  NODE_ENV: z.string().default('production'),
  /** inbound deliveries (inbound/deliveries/durable.ts): first retry wait, attempts, claim, poll period */
  INBOUND_RETRY_MS: z.coerce.number().int().min(1).default(5_000),
  INBOUND_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(5),
  INBOUND_CLAIM_MS: z.coerce.number().int().min(1).default(60_000),
  INBOUND_POLL_MS: z.coerce.number().int().min(1).default(5_000),
  /** flow engine: a content block's typing delay before each text, the gap between its elements (ms), the step cap */
  /** how often the service-level checker looks for due times to compute and targets missed (modules/sla) */
  SLA_CHECK_MS: z.coerce.number().int().min(100).max(300_000).default(15_000),
  FLOW_TYPING_MS: z.coerce.number().int().min(0).max(60_000).default(3_000),
  FLOW_ELEMENT_GAP_MS: z.coerce.number().int().min(0).max(60_000).default(1_000),
  FLOW_STEP_CAP: z.coerce.number().int().min(1).max(10_000).default(100),
  /** most steps one run executes in its whole life (a loop through intervals ends here) */
  FLOW_RUN_STEP_CAP: z.coerce.number().int().min(1).max(1_000_000).default(1_000),
  /** test runs of one company active at once (the editor's Test) */
  FLOW_TEST_RUNS_MAX: z.coerce.number().int().min(1).max(1_000).default(5),
  /**
   * each company's share of background work (lib/tenant-budget.ts), as `rate,concurrency,serverConcurrency`:
   * tasks started a second per company (bursts of twice that), at once per company, at once on the server
   */
  TENANT_BUDGET_FLOWS: zBudget(),
  TENANT_BUDGET_AI: zBudget(),
  TENANT_BUDGET_INTEGRATIONS: zBudget(),
  /** invoices are created this many days before a company's due date */
  INVOICE_LEAD_DAYS: z.coerce.number().int().min(1).max(365).default(20),
  /** the platform's billing (Pix checkout) through Asaas: no key, no checkout */
  ASAAS_API_KEY: z.string().optional(),
  ASAAS_API_URL: z.string().url().default('https://api.asaas.com/v3'),
  /** what Asaas sends in `asaas-access-token` with each webhook; unset, every webhook is refused */
  ASAAS_WEBHOOK_TOKEN: z.string().optional(),
  /** Dialogflow ES REST host (`https://{location}-dialogflow.googleapis.com` for a regional agent; tests: a fake) */
  DIALOGFLOW_API_URL: z.string().url().default('https://dialogflow.googleapis.com'),
  /** the key that seals tenant secrets at rest (lib/secrets.ts): 32 bytes as 64 hex digits or base64 */
  ZELO_SECRET_KEY: z
    .string()
    .refine((v) => parseSecretKey(v) !== undefined, '32 bytes as 64 hex digits or base64')
    .optional(),
  /** tenant spreadsheets (lib/sheets): worker threads at once, a worker's heap, a read's time, the unpacked size */
  SHEET_WORKERS: z.coerce.number().int().min(1).max(64).optional(),
  SHEET_WORKER_MEMORY_MB: z.coerce.number().int().min(32).max(4096).default(128),
  SHEET_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  SHEET_MAX_UNZIPPED_MB: z.coerce.number().int().min(1).max(4096).default(100),
  /** hosts or CIDRs a tenant's outbound URL may reach although private or loopback (lib/outbound.ts) */
  OUTBOUND_ALLOW_HOSTS: z.string().default(''),
  /** Azure speech's synthesis URL, `{region}` replaced by the prompt's region (another cloud, or a test server) */
  AZURE_TTS_URL: z.string().default('https://{region}.tts.speech.microsoft.com/cognitiveservices/v1'),
  /** `GET /metrics` answers Prometheus with this bearer token; unset, there are no metrics (and no cost) */
  METRICS_TOKEN: z.string().min(16, 'at least 16 characters').optional(),
  /**
   * SIGTERM: readiness answers 503 at once, the listener closes after SHUTDOWN_DELAY_MS (time for a load
   * balancer to see it), then requests and sends in flight get up to SHUTDOWN_GRACE_MS to finish
   */
  SHUTDOWN_DELAY_MS: z.coerce.number().int().min(0).max(120_000).default(0),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(600_000).default(20_000),
  /** where media files live (media/store.ts): the local folder DATA_DIR/media, or an S3-compatible bucket */
  MEDIA_STORE: z.enum(['local', 's3']).default('local'),
  S3_BUCKET: z.string().optional(),
  /** unset: AWS S3 itself; MinIO, R2, B2… name theirs (`https://s3.example.com`) */
  S3_ENDPOINT: z.string().url().optional(),
  S3_REGION: z.string().default('us-east-1'),
  /** unset: the SDK's own chain (AWS_ACCESS_KEY_ID…, an instance role) */
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  /** `true`: https://endpoint/bucket/key (MinIO and most self-hosted stores) instead of bucket.endpoint */
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).default('false'),
  /** a key prefix inside the bucket (`zelo/media/`), to share one bucket */
  S3_PREFIX: z.string().default(''),
});

/** 32 bytes from 64 hex digits or base64; undefined when the text is neither */
export const parseSecretKey = (text: string): Buffer | undefined => {
  const value = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(value)) {
    const bytes = Buffer.from(value, 'base64');
    if (bytes.length === 32) return bytes;
  }

  return undefined;
};

export type TConfig = {
  port: number;
  host: string;
  databaseUrl?: string;
  redisUrl?: string;
  redisPrefix: string;
  dataDir: string;
  publicUrl: string;
  jwtSecret: string;
  jwtRefreshSecret: string;
  smtpUrl?: string;
  mailFrom: string;
  adminEmail?: string;
  adminPassword?: string;
  ffmpegPath?: string;
  /** tenant spreadsheets: read in worker threads under these limits (lib/sheets/sheet-pool.ts) */
  sheets: TSheetLimits;
  logLevel: string;
  rateLimits: boolean;
  trustProxy: boolean | string;
  jobs: boolean;
  listAnswers: boolean;
  autoAssignSweepMs: number;
  passwordHashRounds: number;
  inboundDeliveries: { retryMs: number; maxAttempts: number; claimMs: number; pollMs: number };
  invoiceLeadDays: number;
  slaCheckMs: number;
  flows: { typingMs: number; gapMs: number; stepCap: number; runStepCap: number; testRunsMax: number };
  /** each company's share of flow steps, AI calls and integration calls (lib/tenant-budget.ts); unset: `budgetLimits` */
  budgets: { flows?: TBudgetLimits; ai?: TBudgetLimits; integrations?: TBudgetLimits };
  asaas: { apiKey?: string; apiUrl: string; webhookToken?: string };
  dialogflowApiUrl: string;
  /** the 32-byte key sealing tenant secrets (ZELO_SECRET_KEY, else generated once into DATA_DIR) */
  secretKey: Buffer;
  /** OUTBOUND_ALLOW_HOSTS, split: host names, addresses or CIDRs */
  outboundAllowHosts: string[];
  /** Azure speech's URL with `{region}` */
  azureTtsUrl: string;
  /** METRICS_TOKEN: `/metrics` is on with this bearer token */
  metricsToken?: string;
  /** SIGTERM: wait before closing the listener, then the most time given to what is in flight (ms) */
  shutdown: { delayMs: number; graceMs: number };
  webDist: string;
  /** where media files are kept (media/store.ts) */
  media: TMediaConfig;
};

export type TMediaConfig =
  | { store: 'local'; dir: string }
  | {
      store: 's3';
      bucket: string;
      endpoint?: string;
      region: string;
      accessKeyId?: string;
      secretAccessKey?: string;
      forcePathStyle: boolean;
      prefix: string;
    };

/** MEDIA_STORE and its S3_* settings; S3 needs a bucket, and both keys or neither */
const mediaConfig = (e: z.infer<typeof ZEnv>, dataDir: string): TMediaConfig => {
  if (e.MEDIA_STORE === 'local') return { store: 'local', dir: resolve(dataDir, 'media') };
  const problems = [
    ...(e.S3_BUCKET ? [] : ['  S3_BUCKET: required with MEDIA_STORE=s3']),
    ...(Boolean(e.S3_ACCESS_KEY_ID) === Boolean(e.S3_SECRET_ACCESS_KEY)
      ? []
      : ['  S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY: set both or neither']),
  ];
  if (problems.length > 0) throw new Error(`Invalid configuration:\n${problems.join('\n')}`);

  return {
    store: 's3',
    bucket: e.S3_BUCKET as string,
    endpoint: e.S3_ENDPOINT,
    region: e.S3_REGION,
    accessKeyId: e.S3_ACCESS_KEY_ID,
    secretAccessKey: e.S3_SECRET_ACCESS_KEY,
    forcePathStyle: e.S3_FORCE_PATH_STYLE === 'true',
    prefix: e.S3_PREFIX.replace(/^\/+/, ''),
  };
};

/** JWT secrets are never fixed defaults: generated once and kept under DATA_DIR. */
const loadOrCreateSecrets = (dataDir: string) => {
  const file = resolve(dataDir, 'secrets.json');
  if (existsSync(file)) {
    return JSON.parse(readFileSync(file, 'utf8')) as { jwtSecret: string; jwtRefreshSecret: string };
  }
  const secrets = { jwtSecret: randomBytes(48).toString('hex'), jwtRefreshSecret: randomBytes(48).toString('hex') };
  writeFileSync(file, JSON.stringify(secrets), { mode: 0o600 });

  return secrets;
};

/** The secrets key is never a fixed default either: generated once into DATA_DIR/secret.key. */
const loadOrCreateSecretKey = (dataDir: string): Buffer => {
  const file = resolve(dataDir, 'secret.key');
  if (existsSync(file)) {
    const key = parseSecretKey(readFileSync(file, 'utf8'));
    if (!key) throw new Error(`Invalid configuration:\n  ${file}: not a 32-byte key`);

    return key;
  }
  const key = randomBytes(32);
  writeFileSync(file, key.toString('hex'), { mode: 0o600 });

  return key;
};

export const loadConfig = (env: NodeJS.ProcessEnv = process.env): TConfig => {
  // an empty variable counts as unset
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = ZEnv.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid configuration:\n${lines}`);
  }
  const e = parsed.data;
  const dataDir = resolve(e.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  const secrets =
    e.JWT_SECRET && e.JWT_REFRESH_SECRET
      ? { jwtSecret: e.JWT_SECRET, jwtRefreshSecret: e.JWT_REFRESH_SECRET }
      : loadOrCreateSecrets(dataDir);

  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX,
    dataDir,
    publicUrl: e.PUBLIC_URL ?? `http://localhost:${e.PORT}`,
    jwtSecret: secrets.jwtSecret,
    jwtRefreshSecret: secrets.jwtRefreshSecret,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    adminEmail: e.ADMIN_EMAIL,
    adminPassword: e.ADMIN_PASSWORD,
    ffmpegPath: e.FFMPEG_PATH,
    sheets: {
      workers: e.SHEET_WORKERS ?? defaultSheetWorkers(),
      memoryMb: e.SHEET_WORKER_MEMORY_MB,
      timeoutMs: e.SHEET_TIMEOUT_MS,
      maxUnzippedMb: e.SHEET_MAX_UNZIPPED_MB,
    },
    logLevel: e.LOG_LEVEL,
    rateLimits: e.RATE_LIMITS === 'on',
    trustProxy: e.TRUST_PROXY,
    jobs: e.JOBS === 'on',
    listAnswers: e.LIST_ANSWERS === 'on',
    autoAssignSweepMs: e.AUTO_ASSIGN_SWEEP_MS,
    passwordHashRounds: e.PASSWORD_HASH_ROUNDS,
    inboundDeliveries: {
      retryMs: e.INBOUND_RETRY_MS,
      maxAttempts: e.INBOUND_MAX_ATTEMPTS,
      claimMs: e.INBOUND_CLAIM_MS,
      pollMs: e.INBOUND_POLL_MS,
    },
    invoiceLeadDays: e.INVOICE_LEAD_DAYS,
    slaCheckMs: e.SLA_CHECK_MS,
    flows: {
      typingMs: e.FLOW_TYPING_MS,
      gapMs: e.FLOW_ELEMENT_GAP_MS,
      stepCap: e.FLOW_STEP_CAP,
      runStepCap: e.FLOW_RUN_STEP_CAP,
      testRunsMax: e.FLOW_TEST_RUNS_MAX,
    },
    budgets: { flows: e.TENANT_BUDGET_FLOWS, ai: e.TENANT_BUDGET_AI, integrations: e.TENANT_BUDGET_INTEGRATIONS },
    asaas: {
      apiKey: e.ASAAS_API_KEY,
      apiUrl: e.ASAAS_API_URL.replace(/\/+$/, ''),
      webhookToken: e.ASAAS_WEBHOOK_TOKEN,
    },
    dialogflowApiUrl: e.DIALOGFLOW_API_URL.replace(/\/+$/, ''),
    secretKey: e.ZELO_SECRET_KEY ? (parseSecretKey(e.ZELO_SECRET_KEY) as Buffer) : loadOrCreateSecretKey(dataDir),
    outboundAllowHosts: e.OUTBOUND_ALLOW_HOSTS.split(',')
      .map((h) => h.trim())
      .filter(Boolean),
    azureTtsUrl: e.AZURE_TTS_URL,
    metricsToken: e.METRICS_TOKEN,
    shutdown: { delayMs: e.SHUTDOWN_DELAY_MS, graceMs: e.SHUTDOWN_GRACE_MS },
    webDist: resolve(import.meta.dirname, '../../web/dist'),
    media: mediaConfig(e, dataDir),
  };
};

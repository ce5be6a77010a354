import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';

const ZEnv = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.string().url().optional(),
  REDIS_URL: z.string().url().optional(),
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
  NODE_ENV: z.string().default('production'),
  /** inbound deliveries (inbound/deliveries/durable.ts): first retry wait, attempts, claim, poll period */
  INBOUND_RETRY_MS: z.coerce.number().int().min(1).default(5_000),
  INBOUND_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(5),
  INBOUND_CLAIM_MS: z.coerce.number().int().min(1).default(60_000),
  INBOUND_POLL_MS: z.coerce.number().int().min(1).default(5_000),
  /** flow engine: a content block's typing delay before each text, the gap between its elements (ms), the step cap */
  FLOW_TYPING_MS: z.coerce.number().int().min(0).max(60_000).default(3_000),
  FLOW_ELEMENT_GAP_MS: z.coerce.number().int().min(0).max(60_000).default(1_000),
  FLOW_STEP_CAP: z.coerce.number().int().min(1).max(10_000).default(100),
  /** invoices are created this many days before a company's due date */
  INVOICE_LEAD_DAYS: z.coerce.number().int().min(1).max(365).default(20),
  /** the platform's billing (Pix checkout) through Asaas: no key, no checkout */
  ASAAS_API_KEY: z.string().optional(),
  ASAAS_API_URL: z.string().url().default('https://api.asaas.com/v3'),
  /** what Asaas sends in `asaas-access-token` with each webhook; unset, every webhook is refused */
  ASAAS_WEBHOOK_TOKEN: z.string().optional(),
});

export type TConfig = {
  port: number;
  host: string;
  databaseUrl?: string;
  redisUrl?: string;
  dataDir: string;
  publicUrl: string;
  jwtSecret: string;
  jwtRefreshSecret: string;
  smtpUrl?: string;
  mailFrom: string;
  adminEmail?: string;
  adminPassword?: string;
  ffmpegPath?: string;
  logLevel: string;
  rateLimits: boolean;
  trustProxy: boolean | string;
  jobs: boolean;
  listAnswers: boolean;
  inboundDeliveries: { retryMs: number; maxAttempts: number; claimMs: number; pollMs: number };
  invoiceLeadDays: number;
  flows: { typingMs: number; gapMs: number; stepCap: number };
  asaas: { apiKey?: string; apiUrl: string; webhookToken?: string };
  webDist: string;
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
    dataDir,
    publicUrl: e.PUBLIC_URL ?? `http://localhost:${e.PORT}`,
    jwtSecret: secrets.jwtSecret,
    jwtRefreshSecret: secrets.jwtRefreshSecret,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    adminEmail: e.ADMIN_EMAIL,
    adminPassword: e.ADMIN_PASSWORD,
    ffmpegPath: e.FFMPEG_PATH,
    logLevel: e.LOG_LEVEL,
    rateLimits: e.RATE_LIMITS === 'on',
    trustProxy: e.TRUST_PROXY,
    jobs: e.JOBS === 'on',
    listAnswers: e.LIST_ANSWERS === 'on',
    inboundDeliveries: {
      retryMs: e.INBOUND_RETRY_MS,
      maxAttempts: e.INBOUND_MAX_ATTEMPTS,
      claimMs: e.INBOUND_CLAIM_MS,
      pollMs: e.INBOUND_POLL_MS,
    },
    invoiceLeadDays: e.INVOICE_LEAD_DAYS,
    flows: { typingMs: e.FLOW_TYPING_MS, gapMs: e.FLOW_ELEMENT_GAP_MS, stepCap: e.FLOW_STEP_CAP },
    asaas: {
      apiKey: e.ASAAS_API_KEY,
      apiUrl: e.ASAAS_API_URL.replace(/\/+$/, ''),
      webhookToken: e.ASAAS_WEBHOOK_TOKEN,
    },
    webDist: resolve(import.meta.dirname, '../../web/dist'),
  };
};

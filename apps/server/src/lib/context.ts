import type { TDurableInbound } from '../inbound/deliveries/durable';
import type { TAssigner } from '../modules/assignment/assigner';
import type { TJobs } from '../jobs/boss';
import type { Logger } from 'pino';
import type { TChannelRegistry } from '../channels/registry';
import type { TConfig } from '../config';
import type { TDb } from '../db/client';
import type { TMailer } from '../mail/mailer';
import type { TSessionCache } from '../modules/auth/session-cache';
import type { TTokenService } from '../modules/auth/tokens';
import type { TConversationAnswer } from '../modules/messages/messages.service';
import type { TListAnswers } from '../modules/tickets/list-answers';
import type { TRealtime } from '../realtime/realtime';
import type { TMetrics } from './metrics';
import type { TTenantBudgets } from './tenant-budget';

/** What services need from the running server; built once in app.ts. */
export type TAppContext = {
  config: TConfig;
  db: TDb;
  realtime: TRealtime;
  /** channel sessions of this node (channels/registry.ts) */
  channels: TChannelRegistry;
  mailer: TMailer;
  tokens: TTokenService;
  /** principals and ticket viewers kept a few seconds; forget what a change touches */
  sessions: TSessionCache;
  /** the ticket list's answers, kept until their company's next announced change */
  listAnswers: TListAnswers;
  /** the conversation page's answers, kept like the lists' (messages.service.ts `listMessages`) */
  conversationAnswers: TListAnswers<TConversationAnswer>;
  log: Logger;
  /** each company's share of flow steps, AI calls and integration calls (lib/tenant-budget.ts) */
  budgets: TTenantBudgets;
  /** the inbound deliveries' runner (inbound/deliveries/durable.ts), bound in app.ts */
  deliveries?: TDurableInbound;
  /** what /metrics counts (lib/metrics.ts; counts nothing while METRICS_TOKEN is unset) */
  metrics: TMetrics;
  /** fair automatic assignment of waiting tickets (modules/assignment/assigner.ts), bound in app.ts */
  assignment?: TAssigner;
  /** the job system (pg-boss), set by main.ts once it started (absent with JOBS=off and in tests) */
  jobs?: Pick<TJobs, 'send' | 'insert'>;
};

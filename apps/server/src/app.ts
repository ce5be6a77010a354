import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { APP_VERSION } from '@zelo/shared';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import { budgetLimits, type TConfig } from './config';
import { useOutboundAllowList } from './lib/outbound';
import { useSecretKey } from './lib/secrets';
import { usePasswordRounds } from './modules/users/passwords';
import type { TDatabase } from './db/client';
import { createAuthStateStore } from './channels/auth-state.repo';
import { createCloudApiDriver } from './channels/cloud-api/cloud-api.driver';
import { baileysTimingsFromEnv, createBaileysDriver } from './channels/baileys/baileys.driver';
import { loadBaileysKit } from './channels/baileys/baileys.loader';
import { createChannelRegistry } from './channels/registry';
import type { TChannelCall, TChannelReply } from './channels/remote-session';
import { createSandboxOutboxStore } from './channels/sandbox/outbox.repo';
import { createSandboxDriver, sandboxTimingsFromEnv } from './channels/sandbox/sandbox.driver';
import { installRouteDeclarations } from './http/authenticate';
import { installInputGuard } from './http/input-guard';
import { installTenantRefs } from './http/tenant-refs';
import { createDurableInbound } from './inbound/deliveries/durable';
import { createInboundHandlers } from './inbound/index';
import { answerFrameworkError, registerErrorHandling } from './http/errors';
import { installRateLimits } from './http/rate-limit-hook';
import { mediaRequest, registerSecurityHeaders } from './http/security-headers';
import { createTenantBudgets } from './lib/tenant-budget';
import { registerWebApp } from './http/web-app';
import { installApiCompression } from './http/compress';
import { NO_METRICS } from './lib/metrics';
import { createDrain, type TDrain } from './modules/ops/drain';
import { opsRoutes } from './modules/ops/ops.routes';
import type { TAppContext } from './lib/context';
import { createMailer, type TMailer } from './mail/mailer';
import { registerMediaRoute } from './media/serve';
import { setUserOnline } from './modules/auth/auth.repo';
import { authRoutes } from './modules/auth/auth.routes';
import { createSessionCache, type TForgetScope } from './modules/auth/session-cache';
import { createTokenService } from './modules/auth/tokens';
import { cloudApiRoutes } from './modules/cloud-api/cloud-api.routes';
import { companiesRoutes } from './modules/companies/companies.routes';
import { createConnectionStateHandler } from './modules/connections/connection-state';
import { connectionsRoutes } from './modules/connections/connections.routes';
import { contactListsRoutes } from './modules/contact-lists/contact-lists.routes';
import { contactsRoutes } from './modules/contacts/contacts.routes';
import { failedDeliveriesRoutes } from './modules/failed-deliveries/failed-deliveries.routes';
import { helpsRoutes } from './modules/helps/helps.routes';
import { invoicesRoutes } from './modules/invoices/invoices.routes';
import type { TConversationAnswer } from './modules/messages/messages.service';
import { messagesRoutes } from './modules/messages/messages.routes';
import { passwordResetRoutes } from './modules/password-reset/password-reset.routes';
import { plansRoutes } from './modules/plans/plans.routes';
import { promptsRoutes } from './modules/prompts/prompts.routes';
import { announcementsRoutes } from './modules/announcements/announcements.routes';
import { campaignsRoutes } from './modules/campaigns/campaigns.routes';
import { flowsRoutes } from './modules/flows/flows.routes';
import { chatsRoutes } from './modules/chats/chats.routes';
import { sandboxAnnouncer } from './modules/sandbox/sandbox.service';
import { sandboxRoutes } from './modules/sandbox/sandbox.routes';
import { queueIntegrationsRoutes } from './modules/queue-integrations/queue-integrations.routes';
import { queueOptionsRoutes } from './modules/queue-options/queue-options.routes';
import { queuesRoutes } from './modules/queues/queues.routes';
import { quickMessagesRoutes } from './modules/quick-messages/quick-messages.routes';
import { schedulesRoutes } from './modules/schedules/schedules.routes';
import { filesRoutes } from './modules/files/files.routes';
import { messagesApiRoutes, tokenAuthenticator } from './modules/messages-api/messages-api.routes';
import { settingsRoutes } from './modules/settings/settings.routes';
import { registerTicketJoinPolicy } from './modules/tickets/join-policy';
import { createListAnswers, type TListChange } from './modules/tickets/list-answers';
import { ticketsRoutes } from './modules/tickets/tickets.routes';
import { tagsRoutes } from './modules/tags/tags.routes';
import { kanbanRoutes } from './modules/kanban/kanban.routes';
import { ticketNotesRoutes } from './modules/ticket-notes/ticket-notes.routes';
import { usageRoutes } from './modules/usage/usage.routes';
import { usersRoutes } from './modules/users/users.routes';
import { assignmentRoutes } from './modules/assignment/assignment.routes';
import { createAssigner, type TAssigner } from './modules/assignment/assigner';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes';
import { reportsRoutes } from './modules/reports/reports.routes';
import { createRealtime, rooms } from './realtime/realtime';
import { requestLoggerFactory } from './lib/request-logger';

/** Every feature's routes, registered in one place. */
const MODULES = [
  authRoutes,
  passwordResetRoutes,
  companiesRoutes,
  plansRoutes,
  helpsRoutes,
  usersRoutes,
  assignmentRoutes,
  settingsRoutes,
  ticketsRoutes,
  messagesRoutes,
  connectionsRoutes,
  sandboxRoutes,
  contactsRoutes,
  queuesRoutes,
  queueOptionsRoutes,
  quickMessagesRoutes,
  schedulesRoutes,
  filesRoutes,
  messagesApiRoutes,
  tagsRoutes,
  kanbanRoutes,
  ticketNotesRoutes,
  cloudApiRoutes,
  promptsRoutes,
  announcementsRoutes,
  chatsRoutes,
  queueIntegrationsRoutes,
  failedDeliveriesRoutes,
  dashboardRoutes,
  reportsRoutes,
  contactListsRoutes,
  campaignsRoutes,
  flowsRoutes,
  usageRoutes,
  invoicesRoutes,
];

export type TApp = { app: FastifyInstance; ctx: TAppContext; drain: TDrain };

export const buildApp = async (opts: {
  config: TConfig;
  database: TDatabase;
  logger: Logger;
  mailer?: TMailer;
}): Promise<TApp> => {
  const { config, database, logger } = opts;
  const app = Fastify({
    loggerInstance: logger,
    logController: new LogController({
      disableRequestLogging: config.logLevel !== 'debug' && config.logLevel !== 'trace',
    }),
    // request.log made when a request first logs (lib/request-logger.ts)
    childLoggerFactory: requestLoggerFactory,
    trustProxy: config.trustProxy,
    forceCloseConnections: true,
    bodyLimit: 2 * 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 300 },
    frameworkErrors: answerFrameworkError,
  }) as unknown as FastifyInstance;
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  // nosniff, media served inline or as a sandboxed download, the web app's CSP: before any route or plugin
  registerSecurityHeaders(app);
  // requests in flight (graceful stop), counted before Socket.IO takes its own requests off the server
  const drain = createDrain(app.server);
  // /metrics only with METRICS_TOKEN (prom-client loaded then); its HTTP hook before any route
  const serverMetrics = config.metricsToken
    ? await (await import('./modules/ops/metrics')).createServerMetrics(APP_VERSION)
    : undefined;
  serverMetrics?.installHttp(app);
  const metrics = serverMetrics ?? NO_METRICS;

  const tokens = createTokenService(config.jwtSecret);
  // tenant secrets sealed at rest and the outbound URL guard follow this server's configuration
  useSecretKey(config.secretKey);
  usePasswordRounds(config.passwordHashRounds);
  useOutboundAllowList(config.outboundAllowHosts);
  const sessions = createSessionCache({
    onPeerError: (err) => logger.warn({ err }, 'session cache: a forget was not answered by every node'),
  });
  const listAnswers = createListAnswers({ enabled: config.listAnswers });
  const conversationAnswers = createListAnswers<TConversationAnswer>({ enabled: config.listAnswers });
  // bound once the context exists (presence changes kick automatic assignment)
  let assignment: TAssigner | undefined;
  const realtime = await createRealtime(app.server, {
    db: database.db,
    tokens,
    sessions,
    redisUrl: config.redisUrl,
    redisPrefix: config.redisPrefix,
    // what a company's screens hear of makes the kept answers it touches stale, here and (first, through the
    // same Redis connection as the event) on the other nodes
    onAnnounce: (companyId, change) => {
      listAnswers.changed(companyId, change);
      conversationAnswers.changed(companyId, change);
      if (config.redisUrl) realtime.io.serverSideEmit('lists:changed', companyId, change ?? null);
    },
    onPresence: async (auth, online) => {
      if (!online) {
        const left = await realtime.io.in(rooms.user(auth.companyId, auth.userId)).fetchSockets();
        if (left.length > 0) return;
      }
      await setUserOnline(database.db, auth.userId, online);
      // an agent that comes online may take the tickets waiting in its queues
      if (online) assignment?.kick(auth.companyId);
    },
  });
  // channel sessions of this node; PGlite is one process, PostgreSQL may have several nodes
  const channels = createChannelRegistry({
    db: database.db,
    log: logger,
    singleNode: database.kind === 'pglite',
    metrics,
    drivers: {
      sandbox: createSandboxDriver({
        store: createAuthStateStore(database.db),
        outbox: createSandboxOutboxStore(database.db),
        timings: sandboxTimingsFromEnv(),
        onSandboxEvent: sandboxAnnouncer(() => realtime),
      }),
      'cloud-api': createCloudApiDriver({ db: database.db, log: logger }),
      baileys: createBaileysDriver({
        store: createAuthStateStore(database.db),
        log: logger,
        loadKit: loadBaileysKit,
        timings: baileysTimingsFromEnv(),
      }),
    },
    bus: {
      publish: (command) => realtime.io.serverSideEmit('channels', command),
      subscribe: (handler) => realtime.io.on('channels' as never, handler as never),
      // calls on sessions held by another node need the Redis adapter (the only one that reaches other nodes)
      ...(config.redisUrl
        ? {
            request: (call: TChannelCall) =>
              realtime.io.serverSideEmitWithAck('channels:call', call) as Promise<TChannelReply[]>,
            serve: (handler: (call: TChannelCall) => Promise<TChannelReply>) =>
              realtime.io.on(
                'channels:call' as never,
                ((call: TChannelCall, answer: (reply: TChannelReply) => void) => {
                  void handler(call).then(answer, () => answer(null));
                }) as never,
              ),
          }
        : {}),
    },
  });
  // principals, viewers and list answers kept on every node are forgotten on all of them (only the Redis
  // adapter spans nodes)
  if (config.redisUrl) {
    sessions.setPeers({ publish: (scope) => realtime.io.serverSideEmitWithAck('sessions:forget', scope) });
    realtime.io.on(
      'sessions:forget' as never,
      ((scope: TForgetScope, answer?: (done: boolean) => void) => {
        sessions.forgetHere(scope);
        answer?.(true);
      }) as never,
    );
    // the kept answers of a company another node announced a change of (onAnnounce above)
    realtime.io.on(
      'lists:changed' as never,
      ((companyId: number, change: TListChange | null) => {
        const said = change && Array.isArray(change.places) ? change : undefined;
        // rows another node says changed where they are: patched here from this node's own read of them
        if (said?.rows !== undefined && !(Array.isArray(said.rows) && said.rows.every(Number.isInteger)))
          delete said.rows;
        listAnswers.changed(companyId, said);
        conversationAnswers.changed(companyId, said);
      }) as never,
    );
  }
  const ctx: TAppContext = {
    config,
    db: database.db,
    realtime,
    channels,
    tokens,
    sessions,
    listAnswers,
    conversationAnswers,
    log: logger,
    budgets: createTenantBudgets(budgetLimits(config.budgets, database.kind)),
    metrics,
    mailer:
      opts.mailer ??
      createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, log: logger }),
  };

  assignment = createAssigner(ctx, { sweepMs: config.autoAssignSweepMs });
  ctx.assignment = assignment;

  await app.register(fastifyCookie);
  // counters only: the limits are applied by http/rate-limit-hook.ts
  await app.register(fastifyRateLimit, { global: false });
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Zelo API', version: APP_VERSION },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });
  installRouteDeclarations(app, {
    db: database.db,
    tokens,
    sessions,
    tokenAuth: tokenAuthenticator(ctx),
    metricsToken: config.metricsToken,
  });
  installInputGuard(app);
  installTenantRefs(app, database.db);
  if (config.rateLimits) installRateLimits(app);
  // lists, conversation pages and exports travel compressed (http/compress.ts)
  installApiCompression(app);

  // health, readiness and /metrics
  opsRoutes(app, ctx, { drain, metrics: serverMetrics, databaseKind: database.kind });
  serverMetrics?.bind({
    database,
    sockets: () => realtime.io.engine.clientsCount,
    sessions: () => channels.held(),
    inFlight: drain.inFlight,
  });
  for (const register of MODULES) register(app, ctx);
  registerTicketJoinPolicy(ctx);
  // the inbound pipeline: contacts, tickets, messages, then the automation chain; every delivery is stored
  // first and processed from there (inbound/deliveries/durable.ts)
  const deliveries = createDurableInbound(ctx, createInboundHandlers(ctx), {
    ...config.inboundDeliveries,
    singleNode: database.kind === 'pglite',
    restoreMedia: (connectionId, raw) => ctx.channels.local(connectionId)?.restoreMedia?.(raw),
  });
  ctx.deliveries = deliveries;
  ctx.channels.setEvents(deliveries);

  // media under /public/, from the local folder or the bucket (media/serve.ts)
  await registerMediaRoute(app, config);
  const hasWeb = existsSync(resolve(config.webDist, 'index.html'));
  // compressed copies and cache headers (http/web-app.ts)
  if (hasWeb) await registerWebApp(app, config.webDist);

  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/') || mediaRequest(request) || !hasWeb || request.method !== 'GET') {
      return reply.status(404).send({ error: 'ERR_ROUTE_NOT_FOUND', message: 'Not found' });
    }

    // the web app owns every other path (client-side routes)
    return reply.sendFile('index.html');
  });
  // the session handler is the connections module's; the pipeline binds the inbound handlers
  channels.setEvents({ onState: createConnectionStateHandler(ctx) });
  // sessions start once the server listens (main and tests alike), and stop before the database closes
  app.addHook('onListen', () => {
    void channels.startAll();
    deliveries.start();
    ctx.assignment?.start();
  });
  app.addHook('onClose', async () => {
    await ctx.assignment?.stop();
    await deliveries.stop();
    await channels.close();
    await realtime.close();
    for (const budget of Object.values(ctx.budgets)) budget.stop();
  });

  return { app, ctx, drain };
};

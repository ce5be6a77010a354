import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { APP_VERSION } from '@zelo/shared';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import type { TConfig } from './config';
import { useOutboundAllowList } from './lib/outbound';
import { useSecretKey } from './lib/secrets';
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
import { createDurableInbound } from './inbound/deliveries/durable';
import { createInboundHandlers } from './inbound/index';
import { answerFrameworkError, registerErrorHandling } from './http/errors';
import { installRateLimits } from './http/rate-limit-hook';
import { registerSecurityHeaders } from './http/security-headers';
import type { TAppContext } from './lib/context';
import { createMailer, type TMailer } from './mail/mailer';
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
import { createListAnswers } from './modules/tickets/list-answers';
import { ticketsRoutes } from './modules/tickets/tickets.routes';
import { tagsRoutes } from './modules/tags/tags.routes';
import { kanbanRoutes } from './modules/kanban/kanban.routes';
import { ticketNotesRoutes } from './modules/ticket-notes/ticket-notes.routes';
import { usageRoutes } from './modules/usage/usage.routes';
import { usersRoutes } from './modules/users/users.routes';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes';
import { createRealtime, rooms } from './realtime/realtime';

/** Every feature's routes, registered in one place. */
const MODULES = [
  authRoutes,
  passwordResetRoutes,
  companiesRoutes,
  plansRoutes,
  helpsRoutes,
  usersRoutes,
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
  contactListsRoutes,
  campaignsRoutes,
  flowsRoutes,
  usageRoutes,
  invoicesRoutes,
];

export type TApp = { app: FastifyInstance; ctx: TAppContext };

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

  const tokens = createTokenService(config.jwtSecret);
  // tenant secrets sealed at rest and the outbound URL guard follow this server's configuration
  useSecretKey(config.secretKey);
  useOutboundAllowList(config.outboundAllowHosts);
  const sessions = createSessionCache({
    onPeerError: (err) => logger.warn({ err }, 'session cache: a forget was not answered by every node'),
  });
  const listAnswers = createListAnswers({ enabled: config.listAnswers });
  const conversationAnswers = createListAnswers<TConversationAnswer>({ enabled: config.listAnswers });
  const realtime = await createRealtime(app.server, {
    db: database.db,
    tokens,
    sessions,
    redisUrl: config.redisUrl,
    // what a company's screens hear of makes its kept lists stale, here and (first, through the same Redis
    // connection as the event) on the other nodes
    onAnnounce: (companyId) => {
      listAnswers.changed(companyId);
      conversationAnswers.changed(companyId);
      if (config.redisUrl) realtime.io.serverSideEmit('lists:changed', companyId);
    },
    onPresence: async (auth, online) => {
      if (!online) {
        const left = await realtime.io.in(rooms.user(auth.companyId, auth.userId)).fetchSockets();
        if (left.length > 0) return;
      }
      await setUserOnline(database.db, auth.userId, online);
    },
  });
  // channel sessions of this node; PGlite is one process, PostgreSQL may have several nodes
  const channels = createChannelRegistry({
    db: database.db,
    log: logger,
    singleNode: database.kind === 'pglite',
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
    // the kept ticket lists of a company another node announced a change of (onAnnounce above)
    realtime.io.on(
      'lists:changed' as never,
      ((companyId: number) => {
        listAnswers.changed(companyId);
        conversationAnswers.changed(companyId);
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
    mailer:
      opts.mailer ??
      createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, log: logger }),
  };

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
  installRouteDeclarations(app, { db: database.db, tokens, sessions, tokenAuth: tokenAuthenticator(ctx) });
  installInputGuard(app);
  if (config.rateLimits) installRateLimits(app);

  app.get('/api/health', { config: { decl: { auth: 'public' } }, schema: { tags: ['health'] } }, async () => ({
    status: 'ok',
    database: database.kind,
  }));
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

  const mediaDir = resolve(config.dataDir, 'media');
  await mkdir(mediaDir, { recursive: true });
  await app.register(fastifyStatic, { root: mediaDir, prefix: '/public/', decorateReply: false, index: false });
  const hasWeb = existsSync(resolve(config.webDist, 'index.html'));
  // preCompressed: a file's .br or .gz copy goes to browsers that accept it (the build writes them for the emoji data)
  if (hasWeb) {
    await app.register(fastifyStatic, { root: config.webDist, prefix: '/', wildcard: false, preCompressed: true });
  }

  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/') || request.url.startsWith('/public/') || !hasWeb || request.method !== 'GET') {
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
  });
  app.addHook('onClose', async () => {
    await deliveries.stop();
    await channels.close();
    await realtime.close();
  });

  return { app, ctx };
};

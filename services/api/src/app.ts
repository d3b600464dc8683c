import { randomBytes } from 'node:crypto';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import { createDb } from '@locus/db';
import Fastify, { type FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { readFileSync } from 'node:fs';
import { publicUrl, type ApiConfig } from './config';
import { contentSecurityDirectives } from './http/csp';
import { registerDocs } from './http/docs';
import { installErrorHandler, installNotFoundHandler } from './http/errors';
import { metricsAccess } from './http/metrics-access';
import { noStoreForSignedInAnswers } from './http/no-store';
import { registerQueueBoard } from './http/queue-board';
import { registerWebApp } from './http/web-app';
import { queueBoardAccess } from './modules/auth/cookie';
import { installBearerAuth, type RealtimeRevoker } from './modules/auth/guard';
import { authRoutes } from './modules/auth/routes';
import { authSessionRoutes } from './modules/auth-sessions/routes';
import { mfaRoutes } from './modules/mfa/routes';
import { passkeyRoutes } from './modules/passkeys/routes';
import { callListRoutes } from './modules/call-lists/routes';
import { auditRoutes } from './modules/audit/routes';
import { metricsRoutes } from './modules/metrics/routes';
import { overwatchGroupRoutes } from './modules/overwatch/groups-routes';
import { readTrainingCatalogue } from './modules/training/catalogue';
import { trainingRoutes } from './modules/training/routes';
import { apiKeyRoutes } from './modules/partner/keys-routes';
import { installPartnerAuth } from './modules/partner/partner-auth';
import { partnerRoutes } from './modules/partner/partner-routes';
import { webhookRoutes } from './modules/webhooks/routes';
import { teamSessionRoutes } from './modules/team-sessions/routes';
import { verificationRoutes } from './modules/verification/routes';
import { usersAdminRoutes } from './modules/users-admin/routes';
import { teamMemberRoutes } from './modules/team-members/routes';
import { teamRoutes } from './modules/teams/routes';
import { demoRequestRoutes } from './modules/demo-requests/routes';
import { devOutboxRoutes } from './modules/dev-outbox/routes';
import { healthRoutes } from './modules/health/routes';
import { registerPlatformStatus } from './modules/platform-status';
import { platformJobRoutes } from './modules/platform-jobs/routes';
import { psapRoutes } from './modules/psap/routes';
import { publicConfigRoutes } from './modules/public-config/routes';
import { mapDataRoutes } from './modules/map-data/routes';
import { userRoutes } from './modules/users/routes';
import { uscgRoutes } from './modules/uscg/routes';
import { ThreadedWriter, type RowWriter } from './modules/realtime/threaded-writer';
import { Fanout } from './modules/realtime/fanout';
import { readSeq } from './modules/realtime/frames';
import { RealtimeHub } from './modules/realtime/hub';
import { SocketHeartbeat } from './modules/realtime/heartbeat';
import { startSmsOutcomeReporter } from './modules/sms/outcome-reporter';
import { ConsoleSockets } from './modules/realtime/console-sockets';
import { broadcastRoutes } from './modules/broadcasts/routes';
import { broadcastsChannel, ConsoleTickets } from './modules/broadcasts/console-tickets';
import { SessionKeys, Sequencer } from './modules/realtime/sequencer';
import { revokeUserRealtimeAccess } from './modules/sessions/revocation';
import { captchaFromConfig } from './platform/captcha/captcha';
import type { AppDeps } from './platform/deps';
import { loggerOptions } from './platform/logger';
import { createMetrics, type Metrics } from './platform/metrics';
import { createQueues, type Queues } from './platform/queues';
import { installRequestIds, requestIdOptions } from './platform/telemetry';
import { smsOfLastHourByStatus } from './platform/telemetry-repo';
import { overwatchWatchRoutes } from './modules/overwatch/watch-routes';
import { locationRoutes } from './modules/location/routes';
import { chatRoutes } from './modules/chat/routes';
import { mediaRoutes } from './modules/media/routes';
import { mediaStorage } from './modules/media/storage';
import { ChatService } from './modules/chat/service';
import { MediaRelay } from './modules/media/relay';
import { createTranslator } from './modules/chat/translation';
import { ConsoleUsers } from './modules/case-transfer/console-users';
import { caseTransferRoutes } from './modules/case-transfer/routes';
import { startExpirySweeper } from './modules/case-transfer/service';
import { twilioWebhookRoutes } from './modules/sms/routes';
import type { RealtimeContext } from './modules/realtime/context';
import { WriteJournal } from './modules/realtime/write-journal';

const { version } = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
) as { version: string };

/**
 * Builds one API instance: REST contract, docs, metrics, the queue board (platform admins
 * only), the realtime sockets and the web app. `app.close()` shuts it down gracefully: sockets are told to go elsewhere, what
 * callers sent is published and persisted, then connections to Postgres and Redis close.
 */
export async function buildApp(config: ApiConfig): Promise<FastifyInstance> {
  // parseConfig has checked it; read before anything connects, so a file broken since fails fast.
  const trainingCatalogue = readTrainingCatalogue(config);
  const app = Fastify({
    logger: loggerOptions(config.LOG_LEVEL),
    bodyLimit: 1024 * 1024,
    // SPEC.md's call-list paths carry comma-separated uuids in one segment (up to 100 of them).
    routerOptions: { maxParamLength: 4096 },
    // A number is a hop count: trust that many proxies in front of us.
    trustProxy:
      typeof config.TRUST_PROXY === 'number' ? hopsTrusted(config.TRUST_PROXY) : config.TRUST_PROXY,
    return503OnClosing: true,
    ...requestIdOptions,
  });
  const { db, pool } = createDb({
    connectionString: config.DATABASE_URL,
    maxConnections: config.DB_POOL_MAX,
    applicationName: 'locus-api',
    onIdleError: (error) => app.log.error({ err: error }, 'idle Postgres connection failed'),
  });
  // Named so that an operator reading CLIENT LIST can tell instances and roles apart.
  const instanceId = randomBytes(4).toString('hex');
  const redis = new Redis(config.REDIS_URL, {
    maxRetriesPerRequest: null,
    connectionName: `locus-api-${instanceId}`,
  });
  const subscriber = new Redis(config.REDIS_URL, {
    maxRetriesPerRequest: null,
    connectionName: `locus-api-${instanceId}-subscriber`,
  });
  // Every caller event is one script call: auto-pipelining sends the calls made in the same
  // event-loop turn in one write, which on a busy 2-core host halves the caller side's CPU.
  const publisher = new Redis(config.REDIS_URL, {
    maxRetriesPerRequest: null,
    enableAutoPipelining: true,
    connectionName: `locus-api-${instanceId}-publisher`,
  });
  redis.on('error', (error) => app.log.error({ err: error }, 'redis error'));
  publisher.on('error', (error) => app.log.error({ err: error }, 'redis publisher error'));
  subscriber.on('error', (error) => app.log.error({ err: error }, 'redis subscriber error'));
  const metrics = createMetrics();
  const queues = createQueues(redis, config.REDIS_KEY_PREFIX, (error, queue) =>
    app.log.warn({ err: error, queue }, 'queue error'),
  );

  // Fixes and events are written to Postgres on a thread of their own (issue 16), so that
  // building and committing batches never delays a delivery.
  const writer = await ThreadedWriter.start(
    {
      databaseUrl: config.DATABASE_URL,
      maxRows: config.FIX_BATCH_MAX_ROWS,
      maxDelayMs: config.FIX_BATCH_MAX_DELAY_MS,
    },
    app.log,
    (rows, seconds) => {
      metrics.batchRows.inc(rows);
      metrics.batchFlush.observe(seconds);
    },
  );
  const keys = new SessionKeys(config.REDIS_KEY_PREFIX);
  // Numbered rows wait in Redis until committed, so a killed instance's are written by another
  // (issue 18); this instance also writes the journals of instances that died.
  const journal = new WriteJournal(
    publisher,
    keys,
    config.REDIS_KEY_PREFIX,
    `api-${instanceId}`,
    db,
    app.log,
    (rows) => metrics.journalRecovered.inc(rows),
  );
  writer.onCommitted((fixes, events) => journal.written(fixes, events));
  await journal.start();
  const realtime: RealtimeContext = {
    db,
    log: app.log,
    config,
    metrics,
    writer,
    journal,
    fanout: new Fanout(subscriber, readSeq, (ms) => metrics.delivery.observe(ms / 1000)),
    sequencer: new Sequencer(publisher, keys, {
      streamMaxLen: config.REPLAY_STREAM_MAX_LEN,
      ttlSeconds: config.SESSION_REDIS_TTL_SECONDS,
      stampDeliveries: config.DELIVERY_LATENCY_STAMP === 'on',
    }),
  };
  // Chat with the caller: its messages travel over both sockets (see modules/chat).
  const chat = new ChatService(
    realtime,
    createTranslator(config, (message) => app.log.warn(message)),
  );
  realtime.chat = chat;
  // Media requests and live video signalling between the two sockets (issue 19, modules/media).
  realtime.media = new MediaRelay(redis, config.REDIS_KEY_PREFIX, config, app.log);
  const consoleTickets = new ConsoleTickets(redis, config.REDIS_KEY_PREFIX);
  // Case transfers: who has a console open (any instance), and a frame for one user's consoles.
  const consoleUsers = new ConsoleUsers(redis, config.REDIS_KEY_PREFIX, instanceId);
  // One heartbeat for the dispatcher, caller and console sockets (realtime/heartbeat.ts).
  const heartbeat = new SocketHeartbeat(config.SOCKET_HEARTBEAT_MS);
  const consoles = new ConsoleSockets({
    db,
    log: app.log,
    metrics,
    fanout: realtime.fanout,
    tickets: consoleTickets,
    broadcastsChannel: broadcastsChannel(config.REDIS_KEY_PREFIX),
    users: consoleUsers,
    heartbeat,
  });
  const hub = new RealtimeHub(realtime, consoles, heartbeat);
  await hub.start();
  await queues.ready();
  app.server.on('upgrade', hub.handleUpgrade);
  // Fastify drops its own listener after listen: a later server error (out of file descriptors
  // on accept) is logged instead of stopping the instance.
  app.server.on('error', (error) => app.log.error({ err: error }, 'http server error'));

  // Before any route or scope, so that all of them inherit these.
  installErrorHandler(app);
  installRequestIds(app);
  // An idle-expired session's sockets close on every instance, as at its sign-out.
  const revokeRealtime: RealtimeRevoker = (userId, scope, reason) =>
    revokeUserRealtimeAccess({ db, redis, config }, userId, scope, reason);
  installBearerAuth(
    app,
    db,
    {
      timeoutSeconds: config.SESSION_IDLE_TIMEOUT_SECONDS,
      warningSeconds: config.SESSION_IDLE_WARNING_SECONDS,
    },
    revokeRealtime,
  );
  const partnerAuth = {
    db,
    redis,
    redisPrefix: config.REDIS_KEY_PREFIX,
    rateLimit: { limit: config.PARTNER_RATE_LIMIT_PER_MINUTE, windowSeconds: 60 },
  };
  installPartnerAuth(app, partnerAuth);
  noStoreForSignedInAnswers(app);
  await app.register(cookie);
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: contentSecurityDirectives(config, {
        mediaOrigins: trainingCatalogue.mediaOrigins,
      }),
    },
  });
  await registerDocs(app, { version, publicUrl: publicUrl(config) });
  // Set on SIGTERM (main.ts): health answers 503 `draining` while the instance still serves.
  const draining = { now: false };
  healthRoutes(app, {
    db,
    redis,
    redisKeyPrefix: config.REDIS_KEY_PREFIX,
    version,
    persistence: writer,
    draining: () => draining.now,
  });
  metrics.readAtScrape({ queues: queues.all, smsByStatus: () => smsOfLastHourByStatus(db) });
  const mayReadMetrics = metricsAccess(config.METRICS_ALLOW_CIDRS);
  app.get('/metrics', { logLevel: 'warn' }, async (request, reply) => {
    await mayReadMetrics(request);
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });

  const deps: AppDeps = {
    db,
    redis,
    queues,
    config,
    captcha: captchaFromConfig(config, (error) =>
      app.log.error({ err: error }, 'captcha verification failed'),
    ),
    log: app.log,
  };
  await authRoutes(app, deps);
  await mfaRoutes(app, deps);
  await passkeyRoutes(app, deps);
  authSessionRoutes(app, deps);
  psapRoutes(app, deps);
  userRoutes(app, deps);
  uscgRoutes(app, deps);
  demoRequestRoutes(app, deps);
  publicConfigRoutes(app, config);
  await mapDataRoutes(app, config);
  locationRoutes(app, { ...deps, realtime, hub });
  overwatchWatchRoutes(app, { ...deps, realtime, hub });
  chatRoutes(app, chat);
  await mediaRoutes(app, { ...deps, realtime, storage: mediaStorage(config) });
  caseTransferRoutes(app, { ...deps, realtime, consoleUsers });
  // Offers whose time is up expire within a second, on whichever instance sees them first.
  const stopExpirySweeper = startExpirySweeper({ ...deps, realtime, consoleUsers });
  // A text's outcome reaches its session whichever instance took the request (issue 18).
  const stopSmsReporter = startSmsOutcomeReporter({ ...deps, realtime });
  callListRoutes(app, deps);
  verificationRoutes(app, deps);
  auditRoutes(app, deps);
  metricsRoutes(app, deps);
  overwatchGroupRoutes(app, deps);
  await trainingRoutes(app, { ...deps, catalogue: trainingCatalogue });
  apiKeyRoutes(app, deps);
  await partnerRoutes(app, { ...deps, realtime, hub }, partnerAuth);
  webhookRoutes(app, deps);
  teamSessionRoutes(app, { ...deps, realtime });
  usersAdminRoutes(app, deps);
  teamMemberRoutes(app, deps);
  teamRoutes(app, deps);
  platformJobRoutes(app, deps);
  broadcastRoutes(app, { ...deps, consoleTickets });
  devOutboxRoutes(app, { ...deps, realtime, hub });
  registerPlatformStatus(app, {
    ...deps,
    pool,
    metrics,
    persistence: writer,
    instanceId,
    version,
  });
  await twilioWebhookRoutes(app, { ...deps, realtime, hub });

  await registerQueueBoard(
    app,
    queues.all,
    queueBoardAccess(db, revokeRealtime, {
      timeoutSeconds: config.SESSION_IDLE_TIMEOUT_SECONDS,
      warningSeconds: config.SESSION_IDLE_WARNING_SECONDS,
    }),
  );
  installNotFoundHandler(app, await registerWebApp(app, config.WEB_DIST_DIR));

  app.addHook('preClose', async () => {
    app.server.off('upgrade', hub.handleUpgrade);
    await stopExpirySweeper();
    await stopSmsReporter();
    await hub.close(2_000, config.SHUTDOWN_TIMEOUT_MS);
  });
  app.addHook('onClose', async () => {
    // No row is numbered from here on; those being numbered reach the writer before it drains.
    await journal.close();
    await writer.drain(Date.now() + config.SHUTDOWN_TIMEOUT_MS);
    await journal.stop(writer.pending);
    await queues.close();
    await Promise.all([subscriber.quit(), publisher.quit(), redis.quit()]);
    await db.destroy();
  });
  app.decorate('locus', {
    instanceId,
    startDraining: () => void (draining.now = true),
    hub,
    writer,
    journal,
    metrics,
    redis,
    keys,
    queues,
    chat,
  });
  return app;
}

function hopsTrusted(hops: number) {
  return (_address: string, hop: number) => hop < hops;
}

/** This instance's internals, for the process entry point and for tests that inspect them. */
export interface LocusInternals {
  /** Random per process start; names this instance's Redis connections. */
  instanceId: string;
  /** From now on health and readiness answer 503 `draining`; everything else is served. */
  startDraining(): void;
  hub: RealtimeHub;
  writer: RowWriter;
  journal: WriteJournal;
  metrics: Metrics;
  redis: Redis;
  keys: SessionKeys;
  queues: Queues;
  /** Chat with the caller; tests swap its `translator` for a fake engine. */
  chat: ChatService;
}

declare module 'fastify' {
  interface FastifyInstance {
    locus: LocusInternals;
  }
}

// buildApp(config): the whole server as a Fastify instance. main.ts listens; tests call it directly.
import Fastify, { type FastifyInstance } from 'fastify';
import { validatorCompiler, jsonSchemaTransform, type ZodTypeProvider } from 'fastify-type-provider-zod';
import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { Redis } from 'ioredis';
import type { Config } from './config';
import { resolveJwtSecret } from './config';
import { openDatabase, type Database, type DatabaseHandle } from './db/client';
import { registerErrorHandling } from './http/errors-plugin';
import { declareFailures } from './http/declared-failures';
import { registerJsonBodies } from './http/json-body';
import { requestIds, requestLogger } from './http/request-logger';
import { serializerCompiler } from './http/serializer';
import { registerSecurityHeaders } from './http/security-headers';
import { httpLimits } from '@mooz/contract/limits';
import { apiDocsPath } from '@mooz/contract/api-routes';
import { connectRedis, watchRedis } from './infrastructure/redis';
import { registerWebApp } from './http/web-app';
import { registerRealtime } from './realtime/server';
import { healthRoutes } from './modules/health/routes';
import { authRoutes } from './modules/auth/routes';
import { createAuthService, type CodeRequest } from './modules/auth/service';
import { courseRoutes } from './modules/courses/routes';
import { batchRoutes } from './modules/batches/routes';
import { createBatchesService } from './modules/batches/service';
import { createCoursesService } from './modules/courses/service';
import { createCourseTeaching } from './modules/courses/teaching';
import { sessionRoutes } from './modules/sessions/routes';
import { whiteboardRoutes } from './modules/whiteboards/routes';
import { createWhiteboardImages } from './modules/whiteboards/service';
import { pollRoutes } from './modules/polls/routes';
import { createPollAnswers } from './modules/polls/answers-csv';
import { createSessionsService } from './modules/sessions/service';
import { createSessionChanges } from './modules/sessions/session-changes';
import { paymentRoutes } from './modules/payments/routes';
import { navigationRoutes } from './modules/navigation/routes';
import { createSearchService } from './modules/navigation/search';
import { createBookmarksService } from './modules/navigation/bookmarks';
import { databaseFacts, scopeFrom, type ScopeFacts } from './modules/sessions/access';
import { adminRoutes } from './modules/admin/routes';
import { createAdminService } from './modules/admin/service';
import { createPaymentsService } from './modules/payments/service';
import { createProvider } from './modules/payments/provider';
import { createMailer, type Mail, type Mailer } from './infrastructure/mail';
import { createOutbox, type Outbox } from './infrastructure/outbox';
import { memoryRateLimiter, redisRateLimiter, type RateLimiter } from './infrastructure/rate-limiter';
import { createChangeBus, databaseTransport, redisTransport, type ChangeBus } from './infrastructure/change-bus';
import { createAccessTokens, type AccessTokens } from './modules/auth/access-tokens';
import { liveRecordingsOptions, registerLiveRecordings } from './modules/recordings/live-routes';
import { createLiveRecordings } from './modules/recordings/live';
import { createStorage, recordingMediaOrigins } from './modules/recordings/create-storage';
import { recordingMediaRoutes } from './modules/recordings/media-route';
import { recordingRoutes } from './modules/recordings/routes';
import { createRecordingsService } from './modules/recordings/service';
import { createUploads } from './modules/recordings/upload';
import { assignmentRoutes } from './modules/assignments/routes';
import { createAssignmentsService } from './modules/assignments/service';
import { certificateRoutes } from './modules/certificates/routes';
import { createCertificatesService } from './modules/certificates/service';
import { earnDueCertificates } from './modules/certificates/earn';
import { createReminders, sendQueuedReminder, type QueuedReminder, type Reminders } from './modules/sessions/reminders';
import { publicOrigin } from './modules/sessions/join-link';
import { calendarRoutes } from './modules/calendar/routes';
import { createCalendarService } from './modules/calendar/service';
import { dashboardRoutes } from './modules/dashboards/routes';
import { createDashboardsService, type DashboardsDeps } from './modules/dashboards/service';
import { capacityLimit } from './sfu/topology';
import { registerNotifications } from './modules/notifications/module';
import { joinPersonChannels, personChannel } from './modules/notifications/routes';
import { createNotifications } from './modules/notifications/service';
import { createNotificationsDoor } from './modules/notifications/door';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Database;
    jwtSecret: string;
    redis: Redis | null;
    mailer: Mailer;
    outbox: Outbox;
    rateLimiter: RateLimiter;
    /** Changes that drop what is kept in memory, here and in the other processes. */
    changes: ChangeBus;
    accessTokens: AccessTokens;
    /** Session reminders (modules/sessions/reminders.ts). */
    reminders: Reminders;
  }
}

interface AppDependencies {
  /** A database opened by the caller (tests); otherwise the app opens one from the config and closes it. */
  database?: DatabaseHandle;
  /** Outgoing mail; by default SMTP or the outbox, as configured. */
  mailer?: Mailer;
  /** How long what the hot endpoints read is kept without news of a change (default 5 s). */
  cacheTtlMs?: number;
  /** The clock of session reminders and calendars (tests move it). */
  now?: () => Date;
  /** How often session reminders are looked for; 0: never on their own (tests call app.reminders.pass()). */
  reminderPollMs?: number;
}

const contentSecurityPolicy = {
  directives: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", 'https://checkout.razorpay.com'],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
    mediaSrc: ["'self'", 'blob:'],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'", 'ws:', 'wss:', 'https://*.razorpay.com'],
    frameSrc: ["'self'", 'https://api.razorpay.com', 'https://checkout.razorpay.com'],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    upgradeInsecureRequests: null,
  },
};

/**
 * Swagger UI's page at /api/docs gets its own policy in place of the app's: its scripts and stylesheets
 * are files, its icons data: URLs, and the one inline thing it needs is the <style> element inside its
 * logo (an SVG component of swagger-ui-standalone-preset.js, swagger-api/swagger-ui#10655), allowed by
 * its hash and nothing wider. web-app.test.ts checks the hash against the installed Swagger UI.
 */
const swaggerLogoStyleHash = "'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='";
const docsContentSecurityPolicy = [
  "default-src 'self'",
  "base-uri 'self'",
  "font-src 'self' data:",
  "form-action 'self'",
  "frame-ancestors 'self'",
  "img-src 'self' data:",
  "object-src 'none'",
  "script-src 'self'",
  "script-src-attr 'none'",
  `style-src 'self' ${swaggerLogoStyleHash}`,
].join('; ');

export async function buildApp(config: Config, deps: AppDependencies = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: config.logLevel },
    genReqId: requestIds(),
    childLoggerFactory: requestLogger,
    requestIdHeader: 'x-request-id',
    // Every JSON body we take is small; a route that needs more says so (the payment webhook).
    bodyLimit: httpLimits.jsonBodyMaxBytes,
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: true },
    // X-Forwarded-For is believed only from the proxies configured in TRUST_PROXY.
    trustProxy:
      typeof config.trustProxy === 'number'
        ? ((hops: number) => (_address: string, hop: number) => hop < hops)(config.trustProxy)
        : config.trustProxy,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  registerJsonBodies(app);
  declareFailures(app);

  const database = deps.database ?? (await openDatabase(config));
  app.decorate('config', config);
  app.decorate('db', database.db);
  app.decorate('jwtSecret', resolveJwtSecret(config));
  if (!deps.database) app.addHook('onClose', () => database.close());
  app.decorate('storage', await createStorage(config));
  app.addHook('onClose', () => app.storage.close());

  const redis = config.redisUrl ? connectRedis(config.redisUrl, app.log) : null;
  // Its own connection that never queues: during an outage a limit falls back to memory at once.
  const limiterRedis = redis ? watchRedis(redis.duplicate({ enableOfflineQueue: false }), app.log, 'rate limits') : null;
  if (redis) {
    app.addHook('onClose', async () => {
      await Promise.all([redis, limiterRedis!].map((client) => client.quit().catch(() => client.disconnect())));
    });
  }
  app.decorate('redis', redis);
  const changes = createChangeBus({
    transport: redis
      ? redisTransport(redis, `${config.redisPrefix}changes`, app.log)
      : database.kind === 'postgres'
        ? databaseTransport(database, 'mooz_changes')
        : null,
    log: app.log,
  });
  const stopWatching = database.writes.subscribe((tables) => changes.written(tables));
  await changes.start();
  // Before Redis and the database close (onClose hooks run in reverse).
  app.addHook('onClose', async () => {
    stopWatching();
    await changes.close();
  });
  app.decorate('changes', changes);
  const cacheTtlMs = deps.cacheTtlMs ?? 5000;
  const accessTokens = createAccessTokens({ db: app.db, secret: app.jwtSecret, changes, ttlMs: cacheTtlMs });
  app.decorate('accessTokens', accessTokens);
  app.decorate(
    'rateLimiter',
    limiterRedis ? redisRateLimiter(limiterRedis, config.redisPrefix, config.rateLimitScale) : memoryRateLimiter(config.rateLimitScale),
  );
  app.decorate('mailer', deps.mailer ?? createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, log: app.log }));
  const outbox = createOutbox({ db: app.db, log: app.log });
  app.decorate('outbox', outbox);
  // Before the database closes (onClose hooks run in reverse): finish the pass under way.
  app.addHook('onClose', () => outbox.stop());
  app.decorateRequest('user', null);

  // The player's <video> also loads presigned URLs straight from the recordings bucket, when there is one.
  const mediaSrc = [...contentSecurityPolicy.directives.mediaSrc, ...recordingMediaOrigins(config)];
  registerSecurityHeaders(app, { contentSecurityPolicy: { directives: { ...contentSecurityPolicy.directives, mediaSrc } }, crossOriginEmbedderPolicy: false });
  // Without CORS_ORIGINS the app and its API share one origin and no cross-origin caller is let in: the
  // plugin is then not registered at all (with `origin: false` it ran a hook on every request to do
  // nothing, and answered a preflight with the 404 any unknown OPTIONS gets anyway).
  if (config.corsOrigins.length) await app.register(cors, { origin: config.corsOrigins, credentials: true });

  await app.register(swagger, {
    openapi: {
      info: { title: 'Mooz API', version: '1.0.0', description: 'Live classes and recorded courses.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: apiDocsPath, staticCSP: docsContentSecurityPolicy });

  await app.register(healthRoutes);
  const origin = () => publicOrigin(config);
  const noticeService = createNotifications({
    db: app.db,
    outbox: app.outbox,
    mailer: app.mailer,
    secret: app.jwtSecret,
    origin,
    // Realtime starts after the modules; a notice pushed before it is up is read from the list.
    push: (userId, event) => app.realtime?.io.to(personChannel(userId)).emit('action:notification', event),
    now: deps.now,
  });
  const notifications = createNotificationsDoor({ db: app.db, notifications: noticeService, seller: config.seller, origin, secret: app.jwtSecret, now: deps.now });
  await registerNotifications(app, { notifications: noticeService, door: notifications, seller: config.seller });
  const auth = createAuthService({
    notifications,
    db: app.db,
    outbox: app.outbox,
    limiter: app.rateLimiter,
    jwtSecret: app.jwtSecret,
    accessTokenTtl: config.accessTokenTtl,
    refreshTokenTtl: config.refreshTokenTtl,
    trialDays: config.trialDays,
    revoked: (revocation) => accessTokens.revoked(revocation),
  });
  await app.register(authRoutes, { auth });
  app.outbox.handle<Mail>('mail', (mail) => app.mailer.send(mail));
  app.outbox.handle<CodeRequest>('code', (request) => auth.issueCode(request));
  const reminders = createReminders({
    db: app.db,
    log: app.log,
    now: deps.now,
    pollMs: deps.reminderPollMs,
    notifications,
  });
  app.decorate('reminders', reminders);
  app.outbox.handle<QueuedReminder>('reminder', (job) => sendQueuedReminder(app.db, app.mailer, app.log, job));
  app.addHook('onReady', async () => reminders.start());
  // Before the outbox stops (onClose hooks run in reverse): no pass writes jobs after it.
  app.addHook('onClose', () => reminders.stop());

  const courses = createCoursesService({ db: app.db, changes, cacheTtlMs });
  await app.register(courseRoutes, { courses, teaching: createCourseTeaching({ db: app.db, courses, storage: app.storage, log: app.log }) });
  await app.register(batchRoutes, { batches: createBatchesService({ db: app.db }) });
  await app.register(sessionRoutes, {
    sessions: createSessionsService({
      db: app.db,
      courses,
      account: (id) => accessTokens.account(id),
      changes,
      cacheTtlMs,
      maxCapacity: capacityLimit(config.janus.urls.length > 0),
    }),
    changes: createSessionChanges({ db: app.db, outbox: app.outbox, notifications }),
  });
  await app.register(whiteboardRoutes, { images: createWhiteboardImages(app.db) });
  await app.register(pollRoutes, { answers: createPollAnswers(app.db) });
  const payments = createPaymentsService({
    db: app.db,
    courses,
    provider: createProvider(config.payments, app.log),
    keySecret: config.payments.keySecret,
    webhookSecret: config.payments.webhookSecret,
    log: app.log,
    notifications,
  });
  await app.register(paymentRoutes, { payments });
  await app.register(calendarRoutes, {
    calendar: createCalendarService({ db: app.db, secret: app.jwtSecret, origin: (request) => publicOrigin(config, request), now: deps.now }),
  });
  // Search knows a student's account and purchases from what the access tokens and the catalogue keep
  // in memory, as the sessions list does (no query before its own); a teacher's courses by one indexed
  // query rather than from the whole catalogue, which a search alone would otherwise reload every few
  // seconds.
  const scopeFacts: ScopeFacts = {
    account: (id) => accessTokens.account(id),
    taughtCourseIds: databaseFacts(app.db).taughtCourseIds,
    purchases: (id) => courses.purchases(id),
  };
  await app.register(navigationRoutes, {
    search: createSearchService({ db: app.db, sessionScope: (caller) => scopeFrom(scopeFacts, caller, new Date()) }),
    bookmarks: createBookmarksService({ db: app.db }),
  });
  await app.register(adminRoutes, {
    admin: createAdminService({ db: app.db, changes, revoked: (revocation) => accessTokens.revoked(revocation), trialDays: config.trialDays, notifications }),
  });
  await app.register(recordingMediaRoutes);
  const signed = { db: app.db, storage: app.storage, secret: app.jwtSecret };
  await app.register(recordingRoutes, {
    recordings: createRecordingsService({ ...signed, log: app.log }),
    upload: createUploads({ ...signed, told: notifications }),
  });
  await app.register(assignmentRoutes, { assignments: createAssignmentsService({ ...signed, files: { storage: app.storage, log: app.log }, told: notifications }) });
  await app.register(certificateRoutes, { certificates: createCertificatesService({ db: app.db, told: notifications }), told: notifications });
  // PGlite is one process (its data directory is locked) whose every write the change bus hears: a
  // student's kept numbers need no short life there. PostgreSQL may have other processes, whose
  // changes could be missed while the carrier is down: as short a life as the other caches.
  const dashboardsTtlMs = database.kind === 'postgres' ? cacheTtlMs : 10 * 60_000;
  const earnCertificates: DashboardsDeps['earnCertificates'] = (db, userId, now, known) => earnDueCertificates(db, userId, now, known, notifications);
  await app.register(dashboardRoutes, { dashboards: createDashboardsService({ db: app.db, earnCertificates, changes, cacheTtlMs: dashboardsTtlMs }) });
  const liveParts = { db: app.db, storage: app.storage, log: app.log, notifications, realtime: () => app.realtime };
  await registerLiveRecordings(app, createLiveRecordings(liveParts, liveRecordingsOptions(config.liveRecordings)));

  await registerRealtime(app);
  joinPersonChannels(app);

  await registerWebApp(app, config.webDist);
  return app;
}

import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import compress from '@fastify/compress';
import swagger from '@fastify/swagger';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { API_BASE, CLIENT_VERSION, Code, DeviceStatus, envelope, Header, INGEST_BASE, message } from '@wildtrack/contract';
import type { Config } from './config.js';
import type { Db } from './db/connect.js';
import type { CallHooks } from './http/calls.js';
import { closeUnreadBodies, cutSlowBodies } from './http/body-rate.js';
import { AppError } from './http/errors.js';
import { installErrorHandling } from './http/error-handler.js';
import { requestLang } from './http/lang.js';
import { ReplayGuard } from './http/replay.js';
import { verifySignature } from './http/signature.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { serveWebClient } from './http/static.js';
import { UploadSlots } from './http/upload-slots.js';
import { validatorCompiler } from './http/validation.js';
import { type Job, liveSampleFleet, serverJobs, startServerJobs } from './jobs/index.js';
import { AuthRepository } from './modules/auth/repository.js';
import { authRoutes } from './modules/auth/routes.js';
import { AuthService, SESSION_CACHE_MS } from './modules/auth/service.js';
import { UserRepository } from './modules/user/repository.js';
import { userRoutes } from './modules/user/routes.js';
import { UserService } from './modules/user/service.js';
import { DeviceEnrolment } from './modules/device/enrol.js';
import { DeviceGate } from './modules/device/gate.js';
import { DeviceGateRepository } from './modules/device/gate-repository.js';
import { MountService } from './modules/device/mount.js';
import { DeviceRegistry } from './modules/device/registry.js';
import { DeviceRepository } from './modules/device/repository.js';
import { deviceRoutes } from './modules/device/routes.js';
import { uploadRoutes } from './modules/upload/routes.js';
import { UploadService } from './modules/upload/service.js';
import { AdviceRepository } from './modules/advice/repository.js';
import { adviceRoutes } from './modules/advice/routes.js';
import { accountRoutes } from './modules/account/routes.js';
import { AccountRepository } from './modules/account/repository.js';
import { AccountService } from './modules/account/service.js';
import { announceDelivery, Delivery } from './outgoing/delivery.js';
import { OutboxRepository } from './outgoing/outbox-repository.js';
import { HttpSmsGateway } from './outgoing/sms.js';
import { createMailer } from './outgoing/mail-transport.js';
import { AdviceService } from './modules/advice/service.js';
import { FixRepository } from './modules/fix/repository.js';
import { fixRoutes } from './modules/fix/routes.js';
import { FixService } from './modules/fix/service.js';
import { mapRoutes } from './modules/map/routes.js';
import { ImportJobRepository } from './modules/movebank/import-repository.js';
import { MovebankImportService } from './modules/movebank/import-service.js';
import { SourceMarkRepository } from './modules/movebank/repository.js';
import { movebankRoutes } from './modules/movebank/routes.js';
import { FieldRepository } from './modules/field/repository.js';
import { fieldRoutes } from './modules/field/routes.js';
import { FieldService } from './modules/field/service.js';
import { InstructionRepository } from './modules/instruction/repository.js';
import { instructionRoutes } from './modules/instruction/routes.js';
import { InstructionService } from './modules/instruction/service.js';
import { ShareRepository } from './modules/share/repository.js';
import { shareRoutes } from './modules/share/routes.js';
import { ShareService } from './modules/share/service.js';
import { FenceRepository } from './modules/fence/repository.js';
import { fenceRoutes } from './modules/fence/routes.js';
import { FenceService } from './modules/fence/service.js';
import { attachFenceEvaluation } from './modules/fence/evaluation.js';
import { UserLogRepository } from './modules/userlog/repository.js';
import { userLogRoutes } from './modules/userlog/routes.js';
import { UserLogService } from './modules/userlog/service.js';
import { MemberRepository } from './modules/member/repository.js';
import { memberRoutes } from './modules/member/routes.js';
import { MemberService } from './modules/member/service.js';
import { NoticeRepository } from './modules/notice/repository.js';
import { noticeRoutes } from './modules/notice/routes.js';
import { NoticeService } from './modules/notice/service.js';
import { EventRepository } from './modules/event/repository.js';
import { eventRoutes } from './modules/event/routes.js';
import { EventService } from './modules/event/service.js';
import { versionRoutes } from './modules/version/routes.js';
import { VersionService } from './modules/version/service.js';
import { weatherRoutes } from './modules/weather/routes.js';
import { WeatherService } from './modules/weather/service.js';
import { SensorRepository } from './modules/sensor/repository.js';
import { sensorRoutes } from './modules/sensor/routes.js';
import { SensorService } from './modules/sensor/service.js';
import { AccelerationService } from './modules/sensor/acceleration.js';
import { accelerationRoutes } from './modules/sensor/acceleration-routes.js';
import { exportRoutes } from './modules/export/routes.js';
import { directReadRoutes } from './modules/export/direct-read-routes.js';
import { DirectReadService } from './modules/export/direct-read.js';
import { ExportRepository } from './modules/export/repository.js';
import { TokenRepository } from './modules/token/repository.js';
import { tokenRoutes } from './modules/token/routes.js';
import { TokenService } from './modules/token/service.js';
import { ExportService } from './modules/export/service.js';
import { BurstRepository } from './modules/sensor/burst-repository.js';
import { ArchiveRepository } from './modules/archive/repository.js';
import { archiveRoutes } from './modules/archive/routes.js';
import { ArchiveService } from './modules/archive/service.js';
import { downloadTaskRoutes } from './modules/download/routes.js';
import { DownloadTaskRepository } from './modules/download/repository.js';
import { DownloadTaskService } from './modules/download/service.js';
import { exportFileName, writeExport } from './modules/export/index.js';
import type { MovebankServices } from './modules/movebank/index.js';
import { MediaRepository } from './modules/media/repository.js';
import { mediaRoutes } from './modules/media/routes.js';
import { MediaService } from './modules/media/service.js';
import { signInRateLimit } from './modules/auth/rate-limit.js';
import { ingestRoutes } from './ingest/routes.js';
import { openSharedState } from './shared-state/index.js';
import { openLiveBus } from './live/bus.js';
import { LiveHub } from './live/hub.js';
import { LiveRepository } from './live/repository.js';
import { liveRoutes } from './live/routes.js';
import { type EventMailer, eventMailer } from './outgoing/event-mail.js';
import { MailRepository } from './outgoing/event-mail-repository.js';
import { createIngestService, type IngestService } from './ingest/service.js';
import { startClock } from './lib/clock.js';
import { recordSilences } from './db/event-writes.js';

export interface Services {
  auth: AuthService;
  users: UserService;
  /** Registers devices (operator, imports, samples); the console's device calls are DeviceGate's. */
  devices: DeviceRegistry;
  ingest: IngestService;
  fixes: FixService;
  /** Daily ACC archives (the job's pass, tick, is also run by tests). */
  archives: ArchiveService;
  /** Movebank imports started from the console, run in the background. */
  imports: MovebankImportService;
  /** Media files (the thumbnail job's pass, makeThumbnails, is also run by tests and bench/media). */
  media: MediaService;
  /** Remote instructions: the console's calls and the COMM_ERROR job's pass. */
  instructions: InstructionService;
  /** Live delivery to the open consoles (events, notices, fixes), across processes with REDIS_URL. */
  live: LiveHub;
  /** Event e-mail (SMTP_URL): its job's pass, tick, is also run by tests. */
  eventMail: EventMailer;
  /** Geofences: the console's calls (ingest evaluates each batch against them: modules/fence/evaluation.ts). */
  fences: FenceService;
  /** Notices: the console's calls and sending (the CLI's send-notice, system notices). */
  notices: NoticeService;
  /** Download tasks (/download): the calls and the runner (its passes are also run by tests). */
  downloads: DownloadTaskService;
  /** The event list, read state and subscriptions (EventService.wants: whether a user takes an event). */
  events: EventService;
}

export interface BuiltApp {
  app: FastifyInstance;
  services: Services;
  /** Every background job (jobs/index.ts serverJobs): buildApp starts those 'with the app', main.ts the rest. */
  jobs: readonly Job[];
}

type Log = { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };

/**
 * The download task service built on a database, for the server and for the CLI's `run-download-tasks`
 * (a process that only runs tasks): the export module's writers and the notices handed in, so the download
 * module reads no other module's tables.
 */
export function downloadTaskService(database: Db, config: Pick<Config, 'dataDir' | 'downloadKeepMs' | 'downloadTasks' | 'downloadTasksPerUser'>, log: Log, devices?: DeviceGate): DownloadTaskService {
  const notices = new NoticeService(new NoticeRepository(database.db));
  return new DownloadTaskService(
    new DownloadTaskRepository(database.db),
    devices ?? new DeviceGate(new DeviceGateRepository(database.db, database.sqlite)),
    { write: (req, out, opts) => writeExport(database.db, req, out, opts), fileName: (req) => exportFileName(req) },
    config.dataDir,
    { keepMs: config.downloadKeepMs, runs: config.downloadTasks === 'run', perUser: config.downloadTasksPerUser },
    log,
    (userId, notice) => notices.sendToUser(userId, notice),
  );
}

/**
 * The Movebank import's services built on a database, for its callers that have no app (the CLI, the
 * bench, its tests): the import module declares the device writes it needs and the device repository is
 * handed in, so no module reads another's. buildApp hands the same to MovebankImportService.
 */
export function movebankServices(database: Db, dataDir: string): MovebankServices & { devices: DeviceRegistry; tags: DeviceRepository; folders: DeviceRepository } {
  const folders = new DeviceRepository(database.db);
  return { devices: new DeviceRegistry(folders), ingest: createIngestService(database, dataDir), marks: new SourceMarkRepository(database.db), tags: folders, folders };
}

/** The transport: logging, request ids, JSON bodies kept raw for the signature, validation, errors, API docs. */
async function createServer(config: Config): Promise<FastifyInstance> {
  const options: FastifyServerOptions = {
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel },
    bodyLimit: config.bodyLimit,
    genReqId: () => randomUUID(),
    requestIdHeader: Header.requestId,
    trustProxy: config.trustProxy,
    // No request holds the server for good (issue 26 H3, M3): README "Configuration", config.ts `timeouts`.
    requestTimeout: config.timeouts.requestMs,
    keepAliveTimeout: config.timeouts.keepAliveMs,
    connectionTimeout: config.timeouts.idleMs,
    // A malformed URL never reaches a route or the error handler: answer it with the envelope too.
    frameworkErrors: (_error, request, reply) => {
      const body = envelope(Code.Invalid, message(requestLang(request), 'error.badUrl'), null);
      void (reply as unknown as FastifyReply).status(400).type('application/json; charset=utf-8').send(body);
    },
  };
  // Node checks the request and headers timeouts every connectionsCheckingInterval (30 s by default).
  const nodeTimeouts = { headersTimeout: config.timeouts.headersMs, connectionsCheckingInterval: Math.max(250, Math.min(30_000, config.timeouts.headersMs / 4)) };
  // With TLS the server is an https.Server; routes and hooks don't see the difference, the types do.
  const app: FastifyInstance = config.tls
    ? (Fastify as unknown as (o: object) => FastifyInstance)({
        ...options,
        https: { cert: fs.readFileSync(config.tls.cert), key: fs.readFileSync(config.tls.key), ...nodeTimeouts },
      })
    : Fastify({ ...options, http: nodeTimeouts } as FastifyServerOptions);
  closeUnreadBodies(app);
  cutSlowBodies(app, config.minBodyRate, (request) => {
    const rate = config.minBodyRate.bytesPerSecond;
    if (request.url.startsWith(INGEST_BASE)) return { status: 408, json: { ok: false, error: 'too_slow', reason: `the body arrived slower than ${rate} bytes a second: send it again` } };
    return { status: 408, json: envelope(Code.Failed, message(request.lang ?? requestLang(request), 'error.tooSlow', { rate }), null) };
  });

  app.decorateRequest('rawBody', undefined);
  app.decorateRequest('lang', 'en');
  app.decorateRequest('session', undefined);
  app.decorateRequest('signer', undefined);
  app.addHook('onRequest', async (request, reply) => {
    request.lang = requestLang(request);
    reply.header(Header.requestId, request.id);
  });

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    request.rawBody = text;
    if (text.length === 0) return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new AppError(Code.BadJson, 'error.badJson', {}, 400), undefined);
    }
  });

  app.setValidatorCompiler(validatorCompiler);
  // Responses are built from the contract's types; the schemas document them (OpenAPI) and the route
  // tests check them, so serialising needs no second validation pass.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));

  await app.register(swagger, {
    openapi: {
      info: { title: 'Wildtrack console API', version: CLIENT_VERSION, description: 'Every call is a signed POST under /prod-api; see docs/api.md.' },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(compress, { threshold: 1024 });
  await registerSecurityHeaders(app, config.tileLayers);
  installErrorHandling(app, config.bodyLimit);
  return app;
}

/** The server: transport, modules and their routes, the built console, background jobs. */
export async function buildApp(config: Config, database: Db, opts: { jobs?: boolean } = {}): Promise<BuiltApp> {
  // CLOCK_START: the server's time starts at that instant (lib/clock.ts); without it the clock is left as it is.
  if (config.clockStart !== undefined) startClock(config.clockStart);
  const app = await createServer(config);

  const userRepo = new UserRepository(database.db);
  const users = new UserService(userRepo);
  const deviceRepo = new DeviceRepository(database.db);
  const deviceConsole = new DeviceGate(new DeviceGateRepository(database.db, database.sqlite));
  const registry = new DeviceRegistry(deviceRepo);
  const ingest = createIngestService(database, config.dataDir);
  const acceleration = new AccelerationService(deviceConsole, new BurstRepository(database.db));
  // Live messages: fixes from ingest and sign-outs travel on the bus (Redis pub/sub with REDIS_URL).
  const live = new LiveHub(new LiveRepository(database.db), await openLiveBus({ redisUrl: config.redisUrl, redisPrefix: config.redisKeyPrefix }), app.log);
  // Event e-mail: each batch of events to the users who asked for it (off without SMTP_URL, said once here).
  const mailer = eventMailer(config, new MailRepository(database.db), (userId, deviceId, type) => services.events.wants(userId, deviceId, type), app.log);
  // Request codes and rate counters (sign-in, QR polls, share look-ups): in the database, or Redis with REDIS_URL; shared by every process.
  const shared = await openSharedState(database, { redisUrl: config.redisUrl, redisPrefix: config.redisKeyPrefix });
  app.addHook('onClose', async () => shared.close());
  const services: Services = {
    live,
    eventMail: mailer,
    // With REDIS_URL several processes must agree on a sign-out at once: no session is kept per process.
    auth: new AuthService(new AuthRepository(database.db, database.sqlite), users, config.sessionIdleMs, config.redisUrl ? 0 : SESSION_CACHE_MS, shared),
    users,
    devices: registry,
    ingest,
    fixes: new FixService(deviceConsole, new FixRepository(database.db, database.sqlite)),
    archives: new ArchiveService(config.dataDir, deviceConsole, new ArchiveRepository(database.db), acceleration),
    imports: new MovebankImportService(
      new ImportJobRepository(database.db),
      { devices: registry, ingest, marks: new SourceMarkRepository(database.db), tags: deviceRepo },
      deviceConsole,
      config.dataDir,
      app.log,
    ),
    media: new MediaService(config.dataDir, deviceConsole, new MediaRepository(database.db)),
    instructions: new InstructionService(deviceConsole, new InstructionRepository(database.db)),
    fences: new FenceService(deviceConsole, new FenceRepository(database.db)),
    notices: new NoticeService(new NoticeRepository(database.db)),
    downloads: downloadTaskService(database, config, app.log, deviceConsole),
    events: new EventService(deviceConsole, new EventRepository(database.db)),
  };
  ingest.onFixesStored((deviceId, newest) => live.fixesStored(deviceId, newest));
  live.setEventFilter((userId, deviceId, type) => services.events.wants(userId, deviceId, type));
  services.auth.onSignOut((sessionId) => live.signedOut(sessionId));
  app.addHook('preClose', async () => live.close());
  app.addHook('onRequest', signInRateLimit(shared, config.signInRateLimit));
  const replay = new ReplayGuard(shared);
  const uploadSlots = new UploadSlots(config.uploadsPerUser);
  const hooks: CallHooks = {
    verify: (request) => verifySignature(request, replay, (id) => services.auth.signer(id)),
    resolveSession: (signer) => services.auth.resolveSession(signer),
    resolveImageCookie: (value) => services.auth.resolveImageCookie(value),
    openSealed: (field, value, code) => services.auth.openSealed(field, value, code),
    takeUploadSlot: (request, reply, session) => uploadSlots.take(request, reply, session),
    fieldCipher: config.fieldCipher,
  };

  const uploads = new UploadService(config.dataDir, (caller, url) => deviceConsole.canSeeImage(caller, url));
  authRoutes(app, hooks, services.auth);
  userRoutes(app, hooks, services.users, uploads);
  adviceRoutes(app, hooks, new AdviceService(new AdviceRepository(database.db), (caller, url, field) => void uploads.ownPicture(caller, url, field)));
  const delivery = new Delivery(createMailer(config), config.smsUrl ? new HttpSmsGateway(config.smsUrl) : undefined, new OutboxRepository(database.db));
  announceDelivery(delivery, app.log);
  const accounts = new AccountService(new AccountRepository(database.db), users, delivery, shared, config.registration, app.log, undefined, {
    knownBrowser: (cookie, userId) => services.auth.knownBrowser(cookie, userId),
    notices: services.notices,
  });
  accountRoutes(app, hooks, accounts, services.auth);
  ingestRoutes(app, services.ingest);
  deviceRoutes(app, hooks, deviceConsole, new MountService(deviceConsole, deviceRepo), new DeviceEnrolment(registry, deviceRepo, deviceConsole));
  fixRoutes(app, hooks, services.fixes);
  uploadRoutes(app, hooks, uploads);
  mapRoutes(app, hooks, config.tileLayers);
  movebankRoutes(app, hooks, services.imports, config.uploadIdleMs);
  sensorRoutes(app, hooks, new SensorService(deviceConsole, new SensorRepository(database.db, database.sqlite)));
  mediaRoutes(app, hooks, services.media);
  accelerationRoutes(app, hooks, acceleration);
  exportRoutes(app, hooks, new ExportService(deviceConsole, database.db, app.log));
  archiveRoutes(app, hooks, services.archives);
  fieldRoutes(app, hooks, new FieldService(deviceConsole, new FieldRepository(database.db)), config.dataDir);
  instructionRoutes(app, hooks, services.instructions);
  liveRoutes(app, hooks, live);
  fenceRoutes(app, hooks, services.fences, config.uploadIdleMs);
  attachFenceEvaluation(services.ingest, new FenceRepository(database.db, database.sqlite), { fences: services.fences, instructions: services.instructions, log: app.log });
  noticeRoutes(app, hooks, services.notices);
  downloadTaskRoutes(app, hooks, services.downloads);
  // a closing server gives its running download tasks back to the queue (another process takes them up)
  app.addHook('preClose', async () => services.downloads.close());
  eventRoutes(app, hooks, services.events);
  const shares = new ShareService(deviceConsole, new ShareRepository(database.db), shared);
  // a share that ends or narrows takes the recipients' fence rules on its devices with it (issue 26 H1)
  shares.onChanged((deviceIds) => services.fences.withdrawUngranted({ deviceIds }));
  // and leaves the recipients' open consoles at once: their streams tell them to read the tree again
  shares.onChanged((deviceIds) => services.live.sharesChanged(deviceIds));
  shareRoutes(app, hooks, shares);
  const userLog = new UserLogService(new UserLogRepository(database.db));
  userLogRoutes(app, hooks, userLog);
  // personal access tokens, and the read API scripts use them for (Movebank's direct-read protocol)
  const tokens = new TokenService(new TokenRepository(database.db), shared, config.tokenRateLimit);
  tokenRoutes(app, hooks, tokens);
  directReadRoutes(app, tokens, new DirectReadService(deviceConsole, new ExportRepository(database.db)), userLog);
  const members = new MemberService(new MemberRepository(database.db), services.auth, userLog);
  // a disabled member's shares end, and rules made under shares to them stop (docs/accounts.md)
  members.onDisabled(async (userId) => {
    await shares.endGivenBy(userId);
    await services.fences.withdrawUngranted();
  });
  memberRoutes(app, hooks, members);
  versionRoutes(app, hooks, new VersionService(config.version));
  weatherRoutes(app, hooks, new WeatherService(config.weatherUrl, { onFailure: (reason) => app.log.warn({ source: config.weatherUrl, reason }, 'weather source failed') }));
  app.get(`${API_BASE}/docs`, { schema: { hide: true } }, async () => app.swagger());

  await serveWebClient(app, config.webDist ?? path.resolve(import.meta.dirname, '../../web/dist'));
  const jobs = serverJobs({
    ...services,
    shared,
    eventMail: { mailer, everyMs: config.eventMailIntervalMs },
    verificationCodes: [accounts, delivery],
    silences: (now) => recordSilences(database.db, now, DeviceStatus.Working),
    liveSamples: liveSampleFleet(config, database.db, ingest),
  });
  // a bench that times the jobs' work runs their passes itself (jobs: false)
  if (opts.jobs !== false) startServerJobs(app, jobs, 'with the app');
  return { app, services, jobs };
}

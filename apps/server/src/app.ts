import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import compress from '@fastify/compress';
import swagger from '@fastify/swagger';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { API_BASE, CLIENT_VERSION, Code, envelope, Header, message } from '@wildtrack/contract';
import type { Config } from './config.js';
import type { Db } from './db/connect.js';
import type { CallHooks } from './http/calls.js';
import { AppError } from './http/errors.js';
import { installErrorHandling } from './http/error-handler.js';
import { requestLang } from './http/lang.js';
import { ReplayGuard } from './http/replay.js';
import { verifySignature } from './http/signature.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { serveWebClient } from './http/static.js';
import { validatorCompiler } from './http/validation.js';
import { serverJobs, sharedStateSweep, startJobs } from './jobs/index.js';
import { AuthRepository } from './modules/auth/repository.js';
import { authRoutes } from './modules/auth/routes.js';
import { AuthService } from './modules/auth/service.js';
import { UserRepository } from './modules/user/repository.js';
import { userRoutes } from './modules/user/routes.js';
import { UserService } from './modules/user/service.js';
import { DeviceConsole } from './modules/device/console.js';
import { DeviceConsoleRepository } from './modules/device/console-repository.js';
import { MountService } from './modules/device/mount.js';
import { DeviceRegistry } from './modules/device/registry.js';
import { DeviceRepository } from './modules/device/repository.js';
import { deviceRoutes } from './modules/device/routes.js';
import { uploadRoutes } from './modules/upload/routes.js';
import { UploadService } from './modules/upload/service.js';
import { FixRepository } from './modules/fix/repository.js';
import { fixRoutes } from './modules/fix/routes.js';
import { FixService } from './modules/fix/service.js';
import { mapRoutes } from './modules/map/routes.js';
import { ImportJobRepository } from './modules/movebank/jobs-repository.js';
import { MovebankImportService } from './modules/movebank/jobs.js';
import { SourceMarkRepository } from './modules/movebank/repository.js';
import { movebankRoutes } from './modules/movebank/routes.js';
import { signInRateLimit } from './modules/auth/rate-limit.js';
import { ingestRoutes } from './ingest/routes.js';
import { openSharedState } from './shared-state/index.js';
import { createIngestService, type IngestService } from './ingest/service.js';

export interface Services {
  auth: AuthService;
  users: UserService;
  /** Registers devices (operator, imports, samples); the console's device calls are DeviceConsole's. */
  devices: DeviceRegistry;
  ingest: IngestService;
  fixes: FixService;
  /** Movebank imports started from the console, run in the background. */
  imports: MovebankImportService;
}

export interface BuiltApp {
  app: FastifyInstance;
  services: Services;
}

/** The transport: logging, request ids, JSON bodies kept raw for the signature, validation, errors, API docs. */
async function createServer(config: Config): Promise<FastifyInstance> {
  const options: FastifyServerOptions = {
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel },
    bodyLimit: config.bodyLimit,
    genReqId: () => randomUUID(),
    requestIdHeader: Header.requestId,
    trustProxy: config.trustProxy,
    // A malformed URL never reaches a route or the error handler: answer it with the envelope too.
    frameworkErrors: (_error, request, reply) => {
      const body = envelope(Code.Invalid, message(requestLang(request), 'error.badUrl'), null);
      void (reply as unknown as FastifyReply).status(400).type('application/json; charset=utf-8').send(body);
    },
  };
  // With TLS the server is an https.Server; routes and hooks don't see the difference, the types do.
  const app: FastifyInstance = config.tls
    ? (Fastify as unknown as (o: object) => FastifyInstance)({
        ...options,
        https: { cert: fs.readFileSync(config.tls.cert), key: fs.readFileSync(config.tls.key) },
      })
    : Fastify(options);

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
export async function buildApp(config: Config, database: Db): Promise<BuiltApp> {
  const app = await createServer(config);

  const userRepo = new UserRepository(database.db);
  const users = new UserService(userRepo);
  const deviceRepo = new DeviceRepository(database.db);
  const deviceConsole = new DeviceConsole(new DeviceConsoleRepository(database.db, database.sqlite));
  const registry = new DeviceRegistry(deviceRepo);
  const ingest = createIngestService(database, config.dataDir);
  const services: Services = {
    auth: new AuthService(new AuthRepository(database.db, database.sqlite), users, config.sessionIdleMs),
    users,
    devices: registry,
    ingest,
    fixes: new FixService(deviceConsole, new FixRepository(database.db, database.sqlite)),
    imports: new MovebankImportService(
      new ImportJobRepository(database.db),
      { devices: registry, ingest, marks: new SourceMarkRepository(database.db), tags: deviceRepo },
      deviceConsole,
      config.dataDir,
      app.log,
    ),
  };
  // Request codes and sign-in counters: in the database, or Redis with REDIS_URL; shared by every process.
  const shared = await openSharedState(database, { redisUrl: config.redisUrl, redisPrefix: config.redisKeyPrefix });
  app.addHook('onClose', async () => shared.close());
  app.addHook('onRequest', signInRateLimit(shared, config.signInRateLimit));
  const replay = new ReplayGuard(shared);
  const hooks: CallHooks = {
    verify: (request) => verifySignature(request, replay, (id) => services.auth.signer(id)),
    resolveSession: (signer) => services.auth.resolveSession(signer),
    resolveImageCookie: (value) => services.auth.resolveImageCookie(value),
    openSealed: (field, value, code) => services.auth.openSealed(field, value, code),
  };

  authRoutes(app, hooks, services.auth);
  userRoutes(app, hooks, services.users);
  ingestRoutes(app, services.ingest);
  deviceRoutes(app, hooks, deviceConsole, new MountService(deviceConsole, deviceRepo));
  fixRoutes(app, hooks, services.fixes);
  uploadRoutes(app, hooks, new UploadService(config.dataDir, (caller, url) => deviceConsole.canSeeImage(caller, url)));
  mapRoutes(app, hooks, config.tileLayers);
  movebankRoutes(app, hooks, services.imports);
  app.get(`${API_BASE}/docs`, { schema: { hide: true } }, async () => app.swagger());

  await serveWebClient(app, config.webDist ?? path.resolve(import.meta.dirname, '../../web/dist'));
  startJobs(app, [...serverJobs(services), sharedStateSweep(shared)]);
  return { app, services };
}

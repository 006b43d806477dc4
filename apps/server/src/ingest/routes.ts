import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { pipeline, Transform } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  AckSchema,
  FenceAckSchema,
  canonicalString,
  INGEST_BASE,
  INGEST_BODY_HASH_HEADER,
  INGEST_MAX_BATCH_BYTES,
  INGEST_MAX_MEDIA_BYTES,
  INGEST_WINDOW_MS,
  IngestBatchSchema,
  IngestHeader,
  MediaQuerySchema,
  message,
} from '@wildtrack/contract';
import type { z } from 'zod';
import { type Held, IngestAllowance, INGEST_RETRY_AFTER_S } from './allowance.js';
import { BatchRefused, checkTime } from './decode.js';
import { Replayed } from './errors.js';
import type { IngestService } from './service.js';
import { now } from '../lib/clock.js';

/** A refusal of the device API: HTTP status, a stable error word for firmware, and a reason for people. */
class IngestRefusal extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly reason: string,
  ) {
    super(reason);
  }
}

interface DeviceAuth {
  deviceId: number;
  nonce: string;
}

/** What the headers alone tell, checked before the body is read. */
interface Announced {
  deviceId: number;
  secret: string;
  ts: string;
  nonce: string;
  signature: string;
  /** The body's SHA-256 the request declared (INGEST_BODY_HASH_HEADER), its signature then already checked. */
  declaredHash: string | undefined;
  /** The body's SHA-256 as it streamed in (preParsing); undefined when no body was read. */
  bodyHash?: string;
}

const SHA256_HEX = /^[0-9a-f]{64}$/i;
/** A key no device has: an unknown IMEI's signature is checked against it, so both cost the same. */
const NO_DEVICE_SECRET = createHash('sha256').update('wildtrack-no-such-device').digest('hex');

function signatureMatches(secret: string, canonical: string, signature: string): boolean {
  const expected = createHmac('sha256', secret).update(canonical).digest();
  const given = Buffer.from(signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * One answer for an unknown IMEI and a wrong signature, so that answers do not tell which IMEIs exist.
 */
const notRecognised = () => new IngestRefusal(401, 'bad_signature', 'the signature does not match a registered device and the body, path, timestamp and nonce');

const bodyMismatch = () => new IngestRefusal(400, 'bad_body_hash', `the body does not match its ${INGEST_BODY_HASH_HEADER}`);

function header(request: FastifyRequest, name: string): string | undefined {
  const v = request.headers[name];
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid';
  const where = issue.path.join('.') || 'body';
  if (typeof issue.input === 'number' && !Number.isFinite(issue.input)) return `${where}: NaN or Infinity`;
  // a contract rule's message key (the text rule's 'validation.hiddenChars') as its English sentence, the field its path
  return `${where}: ${message('en', issue.message, { field: where })}`;
}

/**
 * The device-facing API (docs/ingest.md), apart from the console's /prod-api: its own body parsing,
 * its own signature (HMAC keyed with the device secret) and plain JSON answers firmware can read.
 */
export function ingestRoutes(app: FastifyInstance, service: IngestService, allowance = new IngestAllowance()): void {
  app.register(
    async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: INGEST_MAX_BATCH_BYTES }, (_req, body, done) => done(null, body));
      scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: INGEST_MAX_MEDIA_BYTES }, (_req, body, done) => done(null, body));

      scope.setErrorHandler((err: FastifyError | IngestRefusal | BatchRefused | Replayed, request: FastifyRequest, reply: FastifyReply) => {
        if (err instanceof IngestRefusal) return reply.status(err.status).send({ ok: false, error: err.error, reason: err.reason });
        if (err instanceof BatchRefused) return reply.status(400).send({ ok: false, error: err.error, reason: err.reason });
        if (err instanceof Replayed) return reply.status(409).send({ ok: false, error: 'replayed', reason: 'this nonce was used before' });
        if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
          return reply.status(413).send({ ok: false, error: 'too_large', reason: `a batch may hold ${INGEST_MAX_BATCH_BYTES} bytes, a media file ${INGEST_MAX_MEDIA_BYTES}` });
        }
        if (typeof err.statusCode === 'number' && err.statusCode < 500) {
          return reply.status(err.statusCode).send({ ok: false, error: 'bad_request', reason: err.message });
        }
        request.log.error({ err }, 'ingest failed');
        return reply.status(500).send({ ok: false, error: 'server_error', reason: `request id ${request.id}` });
      });

      const announced = new WeakMap<FastifyRequest, Announced>();
      const held = new WeakMap<FastifyRequest, Held>();
      const release = (request: FastifyRequest) => held.get(request)?.release();
      const busy = (reply: FastifyReply) => {
        reply.header('retry-after', String(INGEST_RETRY_AFTER_S));
        return new IngestRefusal(503, 'busy', `the server is taking other uploads: send again in ${INGEST_RETRY_AFTER_S} s`);
      };

      // Headers first: the request's own form (time, nonce, media query, size), then the device, then room
      // for the body, all before a byte of the body is read. What does not depend on the device is checked
      // before it is looked up, so that a registered IMEI and an unknown one get the same answers (L2). A
      // request declaring its body hash has its signature checked here; one without it once its body is in
      // (authenticate), and until then it only has the smaller share of the allowance (allowance.ts).
      scope.addHook('onRequest', async (request, reply) => {
        const imei = header(request, IngestHeader.imei);
        const ts = header(request, IngestHeader.timestamp);
        const nonce = header(request, IngestHeader.nonce);
        const signature = header(request, IngestHeader.signature);
        const declaredHash = header(request, INGEST_BODY_HASH_HEADER)?.toLowerCase();
        // A refused request's body is never read: close the connection rather than drain it.
        reply.header('connection', 'close');
        if (!imei || !ts || !nonce || !signature) {
          throw new IngestRefusal(401, 'unsigned', `headers ${Object.values(IngestHeader).join(', ')} are required`);
        }
        const t = Number(ts);
        if (!Number.isSafeInteger(t) || Math.abs(now() - t) > INGEST_WINDOW_MS) {
          throw new IngestRefusal(401, 'stale_timestamp', `the timestamp is more than ${INGEST_WINDOW_MS / 60_000} minutes from the server clock`);
        }
        if (nonce.length < 8 || nonce.length > 128) throw new IngestRefusal(401, 'bad_nonce', 'the nonce must be 8-128 characters');
        if (declaredHash !== undefined && !SHA256_HEX.test(declaredHash)) {
          throw new IngestRefusal(400, 'bad_body_hash', `${INGEST_BODY_HASH_HEADER} must be the body's SHA-256 as 64 hex digits`);
        }
        const media = request.url.startsWith(`${INGEST_BASE}/media`);
        if (media) {
          const q = MediaQuerySchema.safeParse(request.query);
          if (!q.success) throw new IngestRefusal(400, 'bad_media', firstIssue(q.error));
          checkTime(q.data.t, 'media.t', now());
        }
        const limit = media ? INGEST_MAX_MEDIA_BYTES : INGEST_MAX_BATCH_BYTES;
        const declared = Number(request.headers['content-length']);
        const size = Number.isSafeInteger(declared) && declared >= 0 ? Math.min(declared, limit + 1) : limit;
        if (size > limit) throw new IngestRefusal(413, 'too_large', `a batch may hold ${INGEST_MAX_BATCH_BYTES} bytes, a media file ${INGEST_MAX_MEDIA_BYTES}`);
        if (imei.length > 128) throw notRecognised();
        let room: Held | undefined;
        let device: { id: number | bigint | string; secret: string } | undefined;
        if (declaredHash !== undefined) {
          // The signature covers the declared hash: a wrong device is refused here, holding nothing.
          device = await service.findDevice(imei);
          const canonical = canonicalString(request.method, request.url, ts, nonce, declaredHash);
          if (!signatureMatches(device?.secret ?? NO_DEVICE_SECRET, canonical, signature) || !device) throw notRecognised();
          room = allowance.admit({ kind: 'device', deviceId: Number(device.id) }, size);
          if (!room) throw busy(reply);
        } else {
          // Room before the look-up, so that "busy" is no answer that only registered IMEIs get.
          room = allowance.admit({ kind: 'unchecked', address: request.ip }, size);
          if (!room) throw busy(reply);
          device = await service.findDevice(imei).catch((err: unknown) => {
            room?.release();
            throw err;
          });
          if (!device) {
            room.release();
            throw notRecognised();
          }
        }
        held.set(request, room);
        // Given back when the answer is sent, when the connection goes (a client gone, a body cut as too
        // slow), whichever comes first.
        reply.raw.once('close', () => release(request));
        announced.set(request, { deviceId: Number(device.id), secret: device.secret, ts, nonce, signature, declaredHash });
        reply.removeHeader('connection');
      });
      scope.addHook('onResponse', async (request) => release(request));
      scope.addHook('onRequestAbort', async (request) => release(request));

      // The body's hash as it streams in; against a declared hash it is refused at its end, before the
      // route sees it (nothing stored).
      scope.addHook('preParsing', async (request, _reply, payload) => {
        const a = announced.get(request);
        if (!a) return payload;
        const hash = createHash('sha256');
        const hashing = new Transform({
          transform(chunk: Buffer, _encoding, callback) {
            hash.update(chunk);
            callback(null, chunk);
          },
          flush(callback) {
            a.bodyHash = hash.digest('hex');
            if (a.declaredHash !== undefined && a.bodyHash !== a.declaredHash) return callback(bodyMismatch());
            callback();
          },
        });
        // pipeline, not pipe: a client gone mid-body ends the parser's read with an error instead of leaving it waiting.
        return pipeline(payload, hashing, () => undefined);
      });

      const authenticate = (request: FastifyRequest): DeviceAuth => {
        const a = announced.get(request);
        if (!a) throw notRecognised();
        const hash = a.bodyHash ?? createHash('sha256').update(Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0)).digest('hex');
        if (a.declaredHash !== undefined) {
          if (hash !== a.declaredHash) throw bodyMismatch();
        } else if (!signatureMatches(a.secret, canonicalString(request.method, request.url, a.ts, a.nonce, hash), a.signature)) {
          throw notRecognised();
        }
        return { deviceId: a.deviceId, nonce: a.nonce };
      };

      const json = (request: FastifyRequest): unknown => {
        if (!Buffer.isBuffer(request.body) || request.headers['content-type']?.split(';')[0] !== 'application/json') {
          throw new IngestRefusal(415, 'bad_content_type', 'send the batch as application/json');
        }
        try {
          return JSON.parse(request.body.toString('utf8'));
        } catch {
          throw new IngestRefusal(400, 'bad_json', 'the body is not valid JSON (NaN and Infinity are not JSON)');
        }
      };

      scope.post('/batch', async (request) => {
        const auth = authenticate(request);
        const parsed = IngestBatchSchema.safeParse(json(request), { reportInput: true });
        if (!parsed.success) throw new IngestRefusal(400, 'bad_batch', firstIssue(parsed.error));
        const relayId = await service.relayOf(auth.deviceId, parsed.data.relay);
        const counts = await service.writeBatch(auth.deviceId, parsed.data, auth.nonce);
        return service.answer(auth.deviceId, counts, relayId);
      });

      scope.post('/media', async (request) => {
        const auth = authenticate(request);
        const q = MediaQuerySchema.safeParse(request.query);
        if (!q.success) throw new IngestRefusal(400, 'bad_media', firstIssue(q.error));
        const mime = (request.headers['content-type'] ?? 'application/octet-stream').split(';')[0]!.trim();
        const stored = await service.storeMedia(auth.deviceId, q.data, request.body as Buffer, mime, auth.nonce);
        return service.answer(auth.deviceId, { fixes: 0, sensors: 0, bursts: 0, media: stored ? 1 : 0, duplicates: stored ? 0 : 1 });
      });

      scope.post('/ack', async (request) => {
        const auth = authenticate(request);
        const parsed = AckSchema.safeParse(json(request));
        if (!parsed.success) throw new IngestRefusal(400, 'bad_ack', firstIssue(parsed.error));
        const done = await service.acknowledge(auth.deviceId, parsed.data, auth.nonce);
        if (!done) throw new IngestRefusal(404, 'unknown_instruction', `instruction ${parsed.data.id} is not awaiting an answer from this device`);
        return { ok: true, instructions: await service.pendingInstructions(auth.deviceId), serverTime: now() };
      });

      // A device-side fence rule applied (or dropped) at a version (modules/fence, docs/ingest.md).
      scope.post('/fence-ack', async (request) => {
        const auth = authenticate(request);
        const parsed = FenceAckSchema.safeParse(json(request));
        if (!parsed.success) throw new IngestRefusal(400, 'bad_fence_ack', firstIssue(parsed.error));
        const done = await service.acknowledgeFence(auth.deviceId, parsed.data, auth.nonce);
        if (!done) throw new IngestRefusal(404, 'unknown_fence', `fence ${parsed.data.fenceId} version ${parsed.data.version} is not awaiting an answer from this device`);
        return { ok: true, ...(await service.pendingFences(auth.deviceId)), serverTime: now() };
      });
    },
    { prefix: INGEST_BASE },
  );
}

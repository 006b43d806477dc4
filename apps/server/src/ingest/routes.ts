import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  AckSchema,
  canonicalString,
  INGEST_BASE,
  INGEST_MAX_BATCH_BYTES,
  INGEST_MAX_MEDIA_BYTES,
  INGEST_WINDOW_MS,
  IngestBatchSchema,
  IngestHeader,
  MediaQuerySchema,
} from '@wildtrack/contract';
import type { z } from 'zod';
import { BatchRefused } from './decode.js';
import { Replayed } from './errors.js';
import type { IngestService } from './service.js';

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

function header(request: FastifyRequest, name: string): string | undefined {
  const v = request.headers[name];
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid';
  const where = issue.path.join('.') || 'body';
  if (typeof issue.input === 'number' && !Number.isFinite(issue.input)) return `${where}: NaN or Infinity`;
  return `${where}: ${issue.message}`;
}

/**
 * The device-facing API (docs/ingest.md), apart from the console's /prod-api: its own body parsing,
 * its own signature (HMAC keyed with the device secret) and plain JSON answers firmware can read.
 */
export function ingestRoutes(app: FastifyInstance, service: IngestService): void {
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

      const authenticate = async (request: FastifyRequest): Promise<DeviceAuth> => {
        const imei = header(request, IngestHeader.imei);
        const ts = header(request, IngestHeader.timestamp);
        const nonce = header(request, IngestHeader.nonce);
        const signature = header(request, IngestHeader.signature);
        if (!imei || !ts || !nonce || !signature) {
          throw new IngestRefusal(401, 'unsigned', `headers ${Object.values(IngestHeader).join(', ')} are required`);
        }
        const device = await service.findDevice(imei);
        if (!device) throw new IngestRefusal(401, 'unknown_device', `no device with IMEI ${imei.slice(0, 40)}`);
        const t = Number(ts);
        if (!Number.isSafeInteger(t) || Math.abs(Date.now() - t) > INGEST_WINDOW_MS) {
          throw new IngestRefusal(401, 'stale_timestamp', `the timestamp is more than ${INGEST_WINDOW_MS / 60_000} minutes from the server clock`);
        }
        if (nonce.length < 8 || nonce.length > 128) throw new IngestRefusal(401, 'bad_nonce', 'the nonce must be 8-128 characters');
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const canonical = canonicalString(request.method, request.url, ts, nonce, createHash('sha256').update(body).digest('hex'));
        const expected = createHmac('sha256', device.secret).update(canonical).digest();
        const given = Buffer.from(signature, 'hex');
        if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
          throw new IngestRefusal(401, 'bad_signature', 'the signature does not match the body, path, timestamp and nonce');
        }
        return { deviceId: Number(device.id), nonce };
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
        const auth = await authenticate(request);
        const parsed = IngestBatchSchema.safeParse(json(request), { reportInput: true });
        if (!parsed.success) throw new IngestRefusal(400, 'bad_batch', firstIssue(parsed.error));
        const counts = await service.writeBatch(auth.deviceId, parsed.data, auth.nonce);
        return service.answer(auth.deviceId, counts);
      });

      scope.post('/media', async (request) => {
        const auth = await authenticate(request);
        const q = MediaQuerySchema.safeParse(request.query);
        if (!q.success) throw new IngestRefusal(400, 'bad_media', firstIssue(q.error));
        const mime = (request.headers['content-type'] ?? 'application/octet-stream').split(';')[0]!.trim();
        const stored = await service.storeMedia(auth.deviceId, q.data, request.body as Buffer, mime, auth.nonce);
        return service.answer(auth.deviceId, { fixes: 0, sensors: 0, bursts: 0, media: stored ? 1 : 0, duplicates: stored ? 0 : 1 });
      });

      scope.post('/ack', async (request) => {
        const auth = await authenticate(request);
        const parsed = AckSchema.safeParse(json(request));
        if (!parsed.success) throw new IngestRefusal(400, 'bad_ack', firstIssue(parsed.error));
        const done = await service.acknowledge(auth.deviceId, parsed.data, auth.nonce);
        if (!done) throw new IngestRefusal(404, 'unknown_instruction', `instruction ${parsed.data.id} is not awaiting an answer from this device`);
        return { ok: true, instructions: await service.pendingInstructions(auth.deviceId), serverTime: Date.now() };
      });
    },
    { prefix: INGEST_BASE },
  );
}

import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Access, accessRules, API_BASE, CALLS_WHILE_PASSWORD_CHANGE_DUE, type CallAccess, type CallDef, Code, envelope, envelopeSchema, Header, isAccessRule, type Lang, message } from '@wildtrack/contract';
import type { z } from 'zod';
import { type Caller, callerOf, type PublicCaller, type SignedIn, type Signer } from './caller.js';
import { AppError } from './errors.js';
import { isUpload } from './upload-slots.js';
import { type BinaryParts, encryptedEnvelope, type FieldCipherMode, openRequest, requestCipher } from './field-cipher.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The body exactly as sent, for the signature's body hash. */
    rawBody: string | undefined;
    lang: Lang;
    /** The session of a `session` call, set before validation. */
    session: SignedIn | undefined;
  }
  interface FastifyContextConfig {
    call?: CallDef;
    /** Who may make the call (the contract's access rule), as registered: a test walking app routes reads it here. */
    access?: Access;
  }
}

export interface CallContext<B, A extends CallAccess = CallAccess> {
  body: B;
  request: FastifyRequest;
  reply: FastifyReply;
  /** Who is calling: session, organisation, language and time zone on `session` calls; the language on `public` ones. */
  caller: A extends 'session' ? Caller : PublicCaller;
}

export interface CallHooks {
  /** Signature, timestamp and replay check (http/signature.ts); leaves the session it was keyed with on request.signer. */
  verify(request: FastifyRequest): Promise<void>;
  /** The live session of a checked signature with its user's zone and organisation; 1004 otherwise. */
  resolveSession(signer: Signer | undefined): Promise<SignedIn>;
  /** The live session of the image cookie (`<SessionId>.<image key>`, wire.ts imageKey); 1004 otherwise. */
  resolveImageCookie(value: string | undefined): Promise<SignedIn>;
  /** Opens a field sealed to the server key; throws 1023 naming the field. */
  openSealed(field: string, value: string, requestCode: string): Promise<string>;
  /** Takes one of the user's upload slots for a multipart call (http/upload-slots.ts); throws 1012 past the cap. */
  takeUploadSlot?(request: FastifyRequest, reply: FastifyReply, session: SignedIn): void;
  /** FIELD_CIPHER: whether signed-in bodies must come encrypted and answers always go encrypted (http/field-cipher.ts). */
  fieldCipher: FieldCipherMode;
}

/** The session of a signed request: the one its signature was keyed with, checked by hooks.resolveSession. */
async function signedInBy(request: FastifyRequest, hooks: CallHooks): Promise<SignedIn> {
  request.session = await hooks.resolveSession(request.signer);
  return request.session;
}

/** A call's declared access, checked: a call without one (or with a rule the contract doesn't know) is never served. */
function declaredAccess(def: CallDef): Access {
  const rules = def.access === undefined ? [] : accessRules(def.access);
  if (rules.length === 0 || !rules.every(isAccessRule) || (def.auth === 'public') !== (rules[0] === 'public') || (rules.includes('public') && rules.length > 1)) {
    throw new Error(`${def.path}: a call declares its access rule in the contract (public for a public call, session rules otherwise); got ${JSON.stringify(def.access)}`);
  }
  return def.access!;
}

/**
 * Registers one contract call: POST /prod-api + path, the body checked by the contract's schema, and the
 * handler's result wrapped in the envelope. Security runs before validation: signature, then session,
 * then sealed fields are opened. The handler gets the caller, built here once from the session and the
 * body's `timeZone`. The call's access rule (device, folder, rights) is recorded in the route's config and
 * checked by its service; the transport enforces its session part.
 */
export function registerCall<B extends z.ZodType, D extends z.ZodType, A extends CallAccess>(
  app: FastifyInstance,
  hooks: CallHooks,
  def: CallDef<B, D, A>,
  handler: (ctx: CallContext<z.output<B>, A>) => Promise<z.output<D>>,
): void {
  if (def.download) throw new Error(`${def.path} is a download: register it with registerDownload`);
  route(app, hooks, def, { 200: envelopeSchema(def.data) }, async (ctx) => {
    const data = (await handler(ctx)) as unknown;
    const cipher = requestCipher(ctx.request);
    if (cipher?.answers) {
      // The signed-in answer's Data encrypted (field-cipher.ts): JSON as JSON, binary as its bytes.
      const opts = data instanceof JsonData ? (data.binary ? { binary: data.binary } : { json: data.json }) : def.bytes ? { bytes: def.bytes } : {};
      const text = await encryptedEnvelope(cipher, message(ctx.request.lang, 'ok'), data instanceof JsonData ? null : data, opts);
      return ctx.reply.type('application/json; charset=utf-8').send(text);
    }
    if (!(data instanceof JsonData)) return envelope(Code.Success, message(ctx.request.lang, 'ok'), data ?? null);
    // The success envelope written around the Data's own JSON, which is not parsed or copied again.
    const head = Buffer.from(JSON.stringify(envelope(Code.Success, message(ctx.request.lang, 'ok'), 0)).replace(/0\}$/, ''));
    return ctx.reply.type('application/json; charset=utf-8').send(Buffer.concat([head, data.json, Buffer.from('}')]));
  });
}

/**
 * A call's Data already written as JSON (UTF-8), answered inside the success envelope as it is. For an
 * answer of megabytes of base64 (GetAccelerationBinaryV2), where JSON.stringify's scan of the text for
 * characters to escape costs more than the call's own work: the handler returns it in place of the Data
 * (cast), and owes the contract's Data shape.
 */
export class JsonData {
  private written: Buffer | undefined;

  /** The JSON, or (withBase64) the parts it is written from: an encrypted answer takes the bytes themselves. */
  constructor(json: Buffer | undefined, readonly binary?: BinaryParts) {
    this.written = json;
  }

  get json(): Buffer {
    this.written ??= JsonData.write(this.binary!);
    return this.written;
  }

  /** `{"<field>":"<base64 of bytes>", ...rest}`: the rest's fields first (numbers, texts), the base64 last, written straight into one buffer. */
  static withBase64(rest: Record<string, unknown>, field: string, bytes: Uint8Array): JsonData {
    return new JsonData(undefined, { rest, field, bytes });
  }

  private static write({ rest, field, bytes }: BinaryParts): Buffer {
    const head = JSON.stringify({ ...rest, [field]: '' }).slice(0, -2);
    const base64 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
    const out = Buffer.allocUnsafe(Buffer.byteLength(head) + base64.length + 2);
    let at = out.write(head);
    at += out.write(base64, at, 'latin1');
    out.write('"}', at);
    return out;
  }
}

/** What a download's handler answers: the file's name (any text: it is escaped here) and its bytes. */
export interface FileAnswer {
  name: string;
  stream: Readable;
  /** The length in bytes when known before sending. */
  size?: number;
}

/**
 * Registers a download (CallDef.download): the same transport, checks and refusals (the envelope) as
 * registerCall, but a success is answered with the file itself, streamed, as an attachment.
 */
export function registerDownload<B extends z.ZodType, A extends CallAccess>(
  app: FastifyInstance,
  hooks: CallHooks,
  def: CallDef<B, z.ZodNull, A>,
  handler: (ctx: CallContext<z.output<B>, A>) => Promise<FileAnswer>,
): void {
  const download = def.download;
  if (!download) throw new Error(`${def.path} is not a download: register it with registerCall`);
  route(app, hooks, def, {}, async (ctx) => {
    const file = await handler(ctx);
    ctx.reply.type(download.type).header('content-disposition', attachment(file.name)).header('cache-control', 'no-store');
    if (file.size !== undefined) ctx.reply.header('content-length', file.size);
    return ctx.reply.send(file.stream);
  });
}

/** An attachment's header: an ASCII fallback with anything unsafe replaced, and the exact name (RFC 6266/5987). */
export function attachment(name: string): string {
  const ascii = name.replace(/[^\w.()-]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

function route<B extends z.ZodType, A extends CallAccess>(
  app: FastifyInstance,
  hooks: CallHooks,
  def: CallDef<B, z.ZodType, A>,
  response: Record<number, unknown>,
  answer: (ctx: CallContext<z.output<B>, A>) => Promise<unknown>,
): void {
  const get = def.method === 'GET';
  const access: CallAccess = def.auth;
  app.route({
    method: get ? 'GET' : 'POST',
    url: API_BASE + def.path,
    config: { call: def as CallDef, access: declaredAccess(def as CallDef) },
    schema: {
      summary: def.summary,
      tags: [def.path.split('/')[2] ?? 'api'],
      ...(get ? { querystring: def.body } : { body: def.body }),
      response,
    },
    preValidation: async (request, reply) => {
      await hooks.verify(request);
      if (access === 'session') {
        const session = await signedInBy(request, hooks);
        // A temporary password is changed before anything else is served (issue 17 item 5).
        if (session.mustChangePassword && !CALLS_WHILE_PASSWORD_CHANGE_DUE.has(def.path)) throw new AppError(Code.Forbidden, 'auth.mustChangePassword');
        if (isUpload(request)) hooks.takeUploadSlot?.(request, reply, session);
        // The encrypted body (or GET query) opened in place, so that sealed fields and the schema see the plain one.
        // Uploads (multipart) travel as before, their answers too: the console's upload path reads a clear envelope
        // (docs/api.md "Encrypted bodies and answers"; fence.spec's .shp import met 'Data does not match the contract').
        if (request.signer && !isUpload(request)) openRequest(request, request.signer.key, hooks.fieldCipher, get ? 'query' : 'body');
      }
      // Sealed fields are opened before validation so the contract's rules apply to the plain value.
      if (!def.sealed || !request.body || typeof request.body !== 'object') return;
      const body = request.body as Record<string, unknown>;
      const code = String(request.headers[Header.requestCode]);
      for (const field of def.sealed) {
        const value = body[field];
        if (typeof value === 'string') body[field] = await hooks.openSealed(field, value, code);
      }
    },
    handler: async (request, reply) => {
      const body = (get ? request.query : request.body) as z.output<B>;
      const caller =
        access === 'session'
          ? callerOf(requireSession(request), request.lang, (body as { timeZone?: unknown } | null | undefined)?.timeZone)
          : { lang: request.lang };
      return answer({ body, request, reply, caller: caller as CallContext<z.output<B>, A>['caller'] });
    },
  });
}

function requireSession(request: FastifyRequest): SignedIn {
  if (!request.session) throw new AppError(Code.SessionExpired, 'error.sessionExpired');
  return request.session;
}

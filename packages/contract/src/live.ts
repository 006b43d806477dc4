import { z } from 'zod';

/**
 * Live messages to the open console (issue 15 item 5): one server-sent-events stream per signed-in
 * console, `GET /prod-api` + LIVE_STREAM_PATH, signed as any GET call (the browser reads it with fetch(),
 * which can send the signature headers; EventSource cannot). It is not a contract call (its answer is a
 * stream, not an envelope): a refusal before the stream starts is still the envelope (1004 and the rest).
 *
 * Every message has an `id`; a console that reconnects names the last one of each kind it saw (the query's
 * `event`, `notice`, `fix`) and gets what it missed. Events and notices are replayed from the database, so
 * even after a server restart; fixes from a bounded recent log (in memory, or in Redis with REDIS_URL).
 * When what was missed can't be replayed (too much, or the log no longer holds it) the server says
 * `resync` and the console reads its lists again.
 */
export const LIVE_STREAM_PATH = '/api/Live/Stream';

/** A comment line at least this often keeps proxies from closing an idle stream. */
export const LIVE_HEARTBEAT_MS = 20_000;

/** The reconnect delays of the console: doubling from the first, capped at the last. */
export const LIVE_RECONNECT_MIN_MS = 1_000;
export const LIVE_RECONNECT_MAX_MS = 30_000;

/** The query of a (re)connect: the last id of each kind the console saw, absent on a first connect. */
export const LiveQuerySchema = z.object({
  event: z.coerce.number().int().min(0).optional(),
  notice: z.coerce.number().int().min(0).optional(),
  fix: z.string().max(64).regex(/^[\w.:-]*$/).optional(),
});
export type LiveQuery = z.infer<typeof LiveQuerySchema>;

export const LiveMessageSchema = z.discriminatedUnion('type', [
  /** The stream is open; `cursor` names where it starts (a first connect starts from now). */
  z.object({ type: z.literal('ready'), id: z.string(), cursor: z.object({ event: z.number(), notice: z.number(), fix: z.string() }) }),
  /** A new event of a device the user may read (§3 Event): the event list and its count change. */
  z.object({ type: z.literal('event'), id: z.string(), eventId: z.number(), imei: z.string(), eventType: z.number(), happenTime: z.number() }),
  /** A new notice to the user's organisation or to all: the unread dot changes. */
  z.object({ type: z.literal('notice'), id: z.string(), noticeId: z.number() }),
  /** New fixes of a device the user may read: its last position (the newest valid fix of the batch, when it has one). */
  z.object({
    type: z.literal('fix'),
    id: z.string(),
    imei: z.string(),
    time: z.number(),
    lon: z.number().nullable(),
    lat: z.number().nullable(),
  }),
  /** A share to the user of a device ended or changed (revoked, its window or rights changed): read the device tree again. */
  z.object({ type: z.literal('access'), id: z.string() }),
  /** What was missed could not be replayed: read `what` again. */
  z.object({ type: z.literal('resync'), id: z.string(), what: z.enum(['event', 'notice', 'fix']) }),
]);
export type LiveMessage = z.infer<typeof LiveMessageSchema>;

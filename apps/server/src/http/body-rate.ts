import type { FastifyInstance, FastifyRequest } from 'fastify';

/** The slowest a request body may arrive: at least `bytesPerSecond` over every window of `windowMs`. */
export interface MinBodyRate {
  bytesPerSecond: number;
  windowMs: number;
}

/** What a request cut for its slow body is answered (written straight to the socket, which is then closed). */
export type SlowBodyAnswer = (request: FastifyRequest) => { status: number; json: unknown };

/** Whether a request carries a body at all (one declared by its length, or sent in chunks). */
function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  if (length !== undefined) return Number(length) > 0;
  return request.headers['transfer-encoding'] !== undefined;
}

/**
 * Cuts request bodies that arrive slower than the minimum rate (issue 26 H3, M3): a client sending a
 * byte a second would otherwise hold its room (the ingest allowance, an upload's slot, a socket) for as
 * long as it likes, and the request timeout alone lets it for minutes. Every window the bytes the socket
 * took are counted; fewer than the rate allows and the request is answered 408 (Fastify's way for a
 * client timeout: the answer written to the socket, the socket destroyed), which aborts its handler and
 * gives back what it held. A window in which the server itself left body bytes unread (the handler not
 * reading yet, or writing to disk) is not the client's fault and is not counted. Uses the socket's own
 * counter, never a `data` listener, so that it works under every body reader (Fastify's parsers,
 * @fastify/multipart's busboy).
 */
export function cutSlowBodies(app: FastifyInstance, rate: MinBodyRate, answer: SlowBodyAnswer): void {
  if (rate.bytesPerSecond <= 0) return;
  const least = (rate.bytesPerSecond * rate.windowMs) / 1000;
  app.addHook('onRequest', async (request, reply) => {
    const socket = request.raw.socket;
    // app.inject's requests have no real socket (nor its counter): nothing to watch there.
    if (!hasBody(request) || typeof socket?.bytesRead !== 'number') return;
    let seen = socket.bytesRead;
    // Watched until the body is in or the connection goes, not until the answer: a handler may answer
    // before reading the whole body (a refused field), and Node then reads the rest to discard it. Its end
    // stops the watch at once: a keep-alive connection's every request would otherwise leave a 'close'
    // listener and a timer on the socket until the next window (11 quick calls in 30 s warned
    // MaxListenersExceeded).
    const stop = () => {
      clearInterval(timer);
      socket.off('close', stop);
      request.raw.off('end', stop);
    };
    const timer = setInterval(() => {
      if (request.raw.complete || socket.destroyed) return stop();
      const now = socket.bytesRead;
      const took = now - seen;
      seen = now;
      if (took >= least || request.raw.readableLength > 0) return;
      stop();
      request.log.info({ took, windowMs: rate.windowMs }, 'request body too slow: cut');
      if (!reply.raw.headersSent && socket.writable) {
        const { status, json } = answer(request);
        const body = JSON.stringify(json);
        socket.write(`HTTP/1.1 ${status} Request Timeout\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
      }
      socket.destroy();
    }, rate.windowMs);
    timer.unref();
    socket.once('close', stop);
    request.raw.once('end', stop);
  });
}

/**
 * An answer sent before its request's body is in closes the connection (a handler refusing an upload's
 * fields before its file, an ingest refusal on the headers). Node only drains the rest of a body nobody
 * began reading; one a reader stopped reading halfway (busboy after a refused part) would hold the
 * connection, its descriptor and the buffered bytes until the idle timeout, and its unread bytes would
 * look like the server's own backpressure to the minimum rate.
 */
export function closeUnreadBodies(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply) => {
    if (hasBody(request) && request.raw.complete === false && typeof request.raw.socket?.bytesRead === 'number') void reply.header('connection', 'close');
  });
}

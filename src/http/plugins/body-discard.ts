import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * How much the server still reads, and for how long, from a client it has already answered while
 * that client was still sending: enough for an honest client that sends an oversized upload in one
 * go to finish and read the answer, too little for the reading to be a way of keeping a connection
 * open or making the server read without end. docs/decisions.md.
 */
export const DISCARD_MAX_BYTES = 16 * 1024 * 1024;
export const DISCARD_MAX_MS = 10_000;

type ClosableSocket = Socket & { destroySoon?: () => void };

/** Sockets whose current request was answered before its body had arrived. */
const answeredEarly = new WeakSet<Socket>();

export function isAnsweredEarly(socket: Socket): boolean {
  return answeredEarly.has(socket);
}

/**
 * Reads and drops what `source` (a request body, or after a parser error the socket itself) still
 * sends, within the bounds; past them the connection is cut. `then` runs once `source` has ended,
 * never after a cut.
 */
export function discardWithinBounds(
  source: NodeJS.ReadableStream & { on(event: 'data', fn: (chunk: Buffer) => void): unknown },
  socket: Socket,
  then: () => void,
): void {
  let bytes = 0;
  let settled = false;
  const settle = (finished: boolean) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    if (finished) then();
    else socket.destroy();
  };
  const timer = setTimeout(() => settle(false), DISCARD_MAX_MS).unref();
  source.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes > DISCARD_MAX_BYTES) settle(false);
  });
  source.once('end', () => settle(true));
  source.once('error', () => settle(false));
  socket.once('close', () => settle(false));
  source.resume();
}

/**
 * A client busy sending a body cannot read an answer the server sends before it closes the
 * connection under it: the client's next write meets a reset (EPIPE/ECONNRESET), it reports a
 * network error and retries a request that can never succeed. So an answer sent while the body is
 * still arriving (413, 415, 401, 404 …) starts reading and dropping the rest of that body, within
 * the bounds above, and says `Connection: close`: the connection closes once the body has been read.
 * (Kept alive instead, a Node client that got its whole answer early stops sending and waits for
 * the socket to drain forever, until the time bound cuts it.)
 *
 * The reading starts with the answer, before Node would skip the rest of the body by itself (it
 * does so only once the answer is written, and without a bound). Node closes a connection after its
 * last answer with `socket.destroySoon()` (end, then destroy once written), which would cut the
 * client off mid-body; on such a socket it is deferred until the body has been read. Half-closing at
 * once is no help: a Node client's socket answers the server's FIN by refusing its own further
 * writes, with the same EPIPE.
 */
export function registerBodyDiscard(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply) => {
    const req = request.raw;
    // `complete` is Node's; light-my-request (inject) has no connection to keep and leaves it unset.
    if (req.complete !== false || answeredEarly.has(req.socket)) return;
    const socket = req.socket as ClosableSocket;
    answeredEarly.add(socket);
    void reply.header('connection', 'close');
    let read = false;
    let closeWhenRead: (() => void) | undefined;
    discardWithinBounds(req, socket, () => {
      read = true;
      answeredEarly.delete(socket);
      closeWhenRead?.();
    });
    const closeSoon = socket.destroySoon;
    if (typeof closeSoon !== 'function') return;
    socket.destroySoon = function deferredDestroySoon(this: ClosableSocket) {
      socket.destroySoon = closeSoon;
      if (read) closeSoon.call(this);
      else closeWhenRead = () => closeSoon.call(this);
    };
  });
}

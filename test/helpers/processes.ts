import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';

/** A port free on 127.0.0.1 right now (the OS picks it; closed again before use). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      s.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Polls `probe` until it returns true, at most `timeoutMs`. */
export async function waitFor(what: string, probe: () => Promise<boolean>, timeoutMs: number, everyMs = 50): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await probe().catch(() => false)) return;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

export interface RedisServer {
  port: number;
  url: string;
  /** freeze it (SIGSTOP): connections stay open, nothing answers */
  pause(): void;
  resume(): void;
  /** kill it (SIGKILL), as a crash would; safe to call twice */
  stop(): Promise<void>;
}

/** A throw-away redis-server of this test on its own port, no persistence, on 127.0.0.1 only. */
export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  let exited = false;
  const exit = new Promise<void>((resolve) => {
    child.once('exit', () => {
      exited = true;
      resolve();
    });
    child.once('error', () => {
      exited = true;
      resolve();
    });
  });
  const url = `redis://127.0.0.1:${port}`;
  const stop = async () => {
    if (!exited) {
      child.kill('SIGCONT');
      child.kill('SIGKILL');
    }
    await exit;
  };
  try {
    await waitFor(
      `redis-server on port ${port}`,
      async () => {
        if (exited) throw new Error('redis-server exited');
        const c = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
        c.on('error', () => {});
        try {
          await c.connect();
          return (await c.ping()) === 'PONG';
        } finally {
          c.disconnect();
        }
      },
      10_000,
    );
  } catch (err) {
    await stop();
    throw err;
  }
  return { port, url, pause: () => child.kill('SIGSTOP'), resume: () => child.kill('SIGCONT'), stop };
}

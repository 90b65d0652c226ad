import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
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

/** Whether something accepts connections on 127.0.0.1:port right now. */
export function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const c = connect({ host: '127.0.0.1', port });
    c.once('connect', () => {
      c.destroy();
      resolve(true);
    });
    c.once('error', () => resolve(false));
  });
}

/** One process as /proc shows it (Linux). */
export interface ProcInfo {
  pid: number;
  ppid: number;
  state: string;
  /** clock ticks after boot: with the pid, names one process even after the pid is reused */
  startTicks: number;
  cmdline: string;
}

function procInfo(pid: number): ProcInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
    return { pid, ppid: Number(f[1]), state: f[0] ?? '', startTicks: Number(f[19]), cmdline };
  } catch {
    return undefined;
  }
}

/** Every process below `pid` (children, their children, ...), now. */
export function descendants(pid: number): ProcInfo[] {
  const all = readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .map((n) => procInfo(Number(n)))
    .filter((p): p is ProcInfo => p !== undefined);
  const out: ProcInfo[] = [];
  const parents = new Set([pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of all) {
      if (parents.has(p.ppid) && !parents.has(p.pid)) {
        parents.add(p.pid);
        out.push(p);
        grew = true;
      }
    }
  }
  return out;
}

/** Whether that very process still runs (not gone, not a zombie, its pid not taken by another). */
export function stillRunning(p: ProcInfo): boolean {
  const now = procInfo(p.pid);
  return now !== undefined && now.startTicks === p.startTicks && now.state !== 'Z' && now.state !== 'X';
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
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
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

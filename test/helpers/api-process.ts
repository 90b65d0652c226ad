import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { freePort, waitFor } from './processes.ts';

const ROOT = join(import.meta.dirname, '..', '..');

export interface ServiceProcess {
  name: string;
  /** http://127.0.0.1:PORT for API processes; undefined for workers */
  url: string | undefined;
  /** stdout and stderr so far, for failure messages */
  output(): string;
  exited(): boolean;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process is gone; safe to call twice */
  stop(graceMs?: number): Promise<void>;
}

function start(name: string, script: string, env: Record<string, string>, url: string | undefined): ServiceProcess {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const keep = (b: Buffer) => {
    out += b.toString();
    if (out.length > 200_000) out = out.slice(-100_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exited = child.exitCode !== null;
  const exit = new Promise<void>((resolve) => {
    child.once('exit', () => {
      exited = true;
      resolve();
    });
  });
  return {
    name,
    url,
    output: () => out,
    exited: () => exited,
    async stop(graceMs = 5000) {
      if (exited) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exit;
      clearTimeout(timer);
    },
  };
}

/** `node --import tsx src/main.ts` on a free port of 127.0.0.1; resolves once /healthz answers. */
export async function startApi(name: string, env: Record<string, string>, timeoutMs = 60_000): Promise<ServiceProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const p = start(name, 'src/main.ts', { ...env, PORT: String(port), HOST: '127.0.0.1' }, url);
  try {
    await waitFor(
      `${name} on ${url}`,
      async () => {
        if (p.exited()) throw new Error(`${name} exited:\n${p.output()}`);
        const r = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1000) });
        return r.status === 200;
      },
      timeoutMs,
      100,
    );
  } catch (err) {
    await p.stop();
    throw new Error(`${(err as Error).message}\n${p.output()}`);
  }
  return p;
}

/** `node --import tsx src/worker.ts`: the webhook delivery worker as its own process. */
export function startWorker(name: string, env: Record<string, string>): ServiceProcess {
  return start(name, 'src/worker.ts', env, undefined);
}

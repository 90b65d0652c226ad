import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { freePort, sleep } from './processes.ts';

export const ROOT = join(import.meta.dirname, '..', '..');

export interface ServiceProcess {
  name: string;
  pid: number;
  /** http://127.0.0.1:PORT for API processes; undefined for workers */
  url: string | undefined;
  /** stdout and stderr so far, for failure messages */
  output(): string;
  stdout(): string;
  stderr(): string;
  exited(): boolean;
  /** resolves with the exit code (or the signal that ended it) once the process is gone */
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process is gone; safe to call twice */
  stop(graceMs?: number): Promise<void>;
}

/**
 * What to run: `node --import tsx <script>` in the repository by default; `command` runs anything
 * else (`node dist/main.js`, `npm start`) from the repository folder.
 */
export interface StartOptions {
  command?: string[];
  timeoutMs?: number;
  /** the repository unless given */
  cwd?: string;
}

/** The environment a child gets: nothing of this process's but PATH and HOME. */
export function childEnv(env: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', npm_config_update_notifier: 'false', ...env };
}

export function startProcess(name: string, command: string[], env: Record<string, string>, url?: string, cwd = ROOT): ServiceProcess {
  const child: ChildProcess = spawn(command[0]!, command.slice(1), {
    cwd,
    env: childEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const own = { stdout: '', stderr: '' };
  const keep = (stream: 'stdout' | 'stderr') => (b: Buffer) => {
    out += b.toString();
    if (out.length > 200_000) out = out.slice(-100_000);
    if (own[stream].length < 100_000) own[stream] += b.toString();
  };
  child.stdout?.on('data', keep('stdout'));
  child.stderr?.on('data', keep('stderr'));
  let exited = false;
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      exited = true;
      resolve({ code, signal });
    });
    child.once('error', () => {
      exited = true;
      resolve({ code: null, signal: null });
    });
  });
  return {
    name,
    pid: child.pid ?? -1,
    url,
    output: () => out,
    stdout: () => own.stdout,
    stderr: () => own.stderr,
    exited: () => exited,
    exit,
    async stop(graceMs = 5000) {
      if (exited) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exit;
      clearTimeout(timer);
    },
  };
}

/** The API on a free port of 127.0.0.1; resolves once /healthz answers. */
export async function startApi(name: string, env: Record<string, string>, opts: StartOptions | number = {}): Promise<ServiceProcess> {
  const {
    command = [process.execPath, '--import', 'tsx', 'src/main.ts'],
    timeoutMs = 60_000,
    cwd,
  } = typeof opts === 'number' ? { timeoutMs: opts } : opts;
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const p = startProcess(name, command, { ...env, PORT: String(port), HOST: '127.0.0.1' }, url, cwd);
  const end = Date.now() + timeoutMs;
  for (;;) {
    // An early exit fails at once rather than after the whole timeout.
    if (p.exited()) throw new Error(`${name} exited before it answered:\n${p.output()}`);
    const up = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1000) }).then(
      (r) => r.status === 200,
      () => false,
    );
    if (up) break;
    if (Date.now() > end) {
      await p.stop();
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${name} on ${url}\n${p.output()}`);
    }
    await sleep(100);
  }
  return p;
}

/** `node --import tsx src/worker.ts`: the webhook delivery worker as its own process. */
export function startWorker(
  name: string,
  env: Record<string, string>,
  command = [process.execPath, '--import', 'tsx', 'src/worker.ts'],
): ServiceProcess {
  return startProcess(name, command, env);
}

/** Runs an entry point to its end (for starts that must fail); SIGKILL after `timeoutMs`. */
export async function runToExit(
  command: string[],
  env: Record<string, string>,
  timeoutMs = 60_000,
  cwd = ROOT,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  const p = startProcess('run', command, env, undefined, cwd);
  const timer = setTimeout(() => void p.stop(0), timeoutMs);
  const { code, signal } = await p.exit;
  clearTimeout(timer);
  return { code, signal, stderr: p.stderr(), stdout: p.stdout() };
}

/** Resolves once the process printed a match of `pattern`; fails at once if it exits first. */
export async function waitForOutput(p: ServiceProcess, pattern: RegExp, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!pattern.test(p.output())) {
    if (p.exited()) throw new Error(`${p.name} exited before printing ${pattern}:\n${p.output()}`);
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${p.name} to print ${pattern}:\n${p.output()}`);
    await sleep(100);
  }
}

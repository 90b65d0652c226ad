/**
 * The service's real processes: `node --import tsx src/main.ts` (API) and `src/worker.ts` (webhook
 * worker), each with its own environment and its stdout/stderr appended to a log file the soak
 * scans afterwards. Spawned without a shell or npm in between, so a SIGKILL hits the service itself.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { request } from 'undici';

export const ROOT = join(import.meta.dirname, '..', '..');

export class ServiceProcess {
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  /** exits the soak did not cause (a crash), with their codes */
  readonly unexpectedExits: string[] = [];
  private expectingExit = false;

  constructor(
    readonly name: string,
    private readonly entry: string,
    private readonly env: Record<string, string>,
    readonly logFile: string,
  ) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): void {
    const fd = openSync(this.logFile, 'a');
    this.expectingExit = false;
    const child = spawn(process.execPath, ['--import', 'tsx', this.entry], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...this.env },
      stdio: ['ignore', fd, fd],
    });
    closeSync(fd);
    this.child = child;
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        if (!this.expectingExit) this.unexpectedExits.push(`${this.name} exited by itself (code ${code}, signal ${signal})`);
        if (this.child === child) this.child = undefined;
        resolve();
      });
    });
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** SIGKILL, and wait until the process is gone. */
  async kill(): Promise<void> {
    if (!this.running) return;
    this.expectingExit = true;
    this.child!.kill('SIGKILL');
    await this.exited;
  }

  /** SIGTERM (graceful shutdown), SIGKILL after `graceMs`. */
  async stop(graceMs = 8_000): Promise<void> {
    if (!this.running) return;
    this.expectingExit = true;
    this.child!.kill('SIGTERM');
    const timer = setTimeout(() => this.child?.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
  }

  /** Synchronous last resort (process exit handlers cannot wait). */
  killNow(): void {
    if (this.running) {
      this.expectingExit = true;
      this.child!.kill('SIGKILL');
    }
  }
}

/** Polls `GET /readyz` until it answers 200; returns when, or throws after `timeoutMs`. */
export async function waitReady(base: string, proc: ServiceProcess, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!proc.running) throw new Error(`${proc.name} exited while starting; see ${proc.logFile}`);
    try {
      const res = await request(`${base}/readyz`, { signal: AbortSignal.timeout(1_000) });
      await res.body.text();
      if (res.statusCode === 200) return Date.now();
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${proc.name} not ready at ${base}/readyz within ${timeoutMs} ms; see ${proc.logFile}`);
}

/** A port that was free a moment ago on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** When the process logged that it listens (Fastify's "Server listening at"), first time at or after `sinceMs`. */
export function listeningAt(logFile: string, sinceMs: number): number | undefined {
  let text: string;
  try {
    text = readFileSync(logFile, 'utf8');
  } catch {
    return undefined;
  }
  for (const line of text.split('\n')) {
    if (!line.includes('Server listening')) continue;
    try {
      const entry = JSON.parse(line) as { time?: number };
      if (typeof entry.time === 'number' && entry.time >= sinceMs) return entry.time;
    } catch {
      // not a JSON log line
    }
  }
  return undefined;
}

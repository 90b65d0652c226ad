import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp, type BuildOptions } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import type { App } from '../../src/http/context.ts';
import type { Db } from '../../src/store/db.ts';
import type { DbTarget } from './databases.ts';
import { GenerousRateLimitStore } from './rate-limit.ts';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({ ADMIN_TOKEN, WEBHOOK_WORKER: 'false', WEBHOOK_RETRY_DELAYS: '50ms-100ms,50ms-100ms' }),
    ...overrides,
  };
}

export interface Harness {
  target: DbTarget['name'];
  db: Db;
  app: App;
  /** mutable "now" seen by the app; tests may move it */
  clock: { now: Date };
  close(): Promise<void>;
}

/** `build` passes further BuildOptions through (e.g. a failing `deposits` provider). */
export async function startHarness(
  target: DbTarget,
  overrides: Partial<Config> = {},
  build: Omit<Partial<BuildOptions>, 'config' | 'db' | 'clock'> = {},
): Promise<Harness> {
  const db = await target.open();
  const clock = { now: new Date() };
  // Limits × 1000 unless a test passes its own store, or `rateLimitStore: undefined` for the one
  // buildApp makes from the configuration (test/rate-limit.test.ts uses the real limits).
  const ownStore = !('rateLimitStore' in build);
  const rateLimitStore = ownStore ? new GenerousRateLimitStore() : build.rateLimitStore;
  const app = await buildApp({ logger: false, ...build, rateLimitStore, config: testConfig(overrides), db, clock: () => clock.now });
  return {
    target: target.name,
    db,
    app,
    clock,
    async close() {
      await app.close();
      if (ownStore) await rateLimitStore?.close();
      await db.close();
    },
  };
}

export interface JsonResponse<T = any> {
  status: number;
  headers: LightMyRequestResponse['headers'];
  body: T;
  raw: string;
}

export async function call<T = any>(app: App, opts: InjectOptions): Promise<JsonResponse<T>> {
  const res = await app.inject(opts);
  let body: any;
  try {
    body = res.body === '' ? undefined : JSON.parse(res.body);
  } catch {
    body = undefined;
  }
  return { status: res.statusCode, headers: res.headers, body, raw: res.body };
}

export function admin(app: App, method: InjectOptions['method'], url: string, payload?: unknown) {
  return call(app, {
    method,
    url: `/admin/v1${url}`,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

/** Admin call that must succeed; returns data. */
export async function adminOk<T = any>(app: App, method: InjectOptions['method'], url: string, payload?: unknown): Promise<T> {
  const r = await admin(app, method, url, payload);
  if (r.status >= 300) throw new Error(`${method} ${url} -> ${r.status} ${r.raw}`);
  return r.body.data as T;
}

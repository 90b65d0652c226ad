import { CAPABILITIES } from '../../src/domain/capabilities.ts';
import type { App } from '../../src/http/context.ts';
import { adminOk, call } from './harness.ts';
import { randomUUID } from 'node:crypto';

let counter = 0;

/** Unique across test files and runs sharing one PostgreSQL database, so tests never clean up. */
export function uniqueSlug(prefix = 'salon'): string {
  counter += 1;
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${counter}`;
}

export interface BusinessFixture {
  id: string;
  slug: string;
}

export async function createBusiness(
  app: App,
  subscription: Record<string, unknown> = { plan: 'pro', status: 'active' },
  currency = 'HUF',
): Promise<BusinessFixture> {
  const slug = uniqueSlug();
  const data = await adminOk(app, 'POST', '/businesses', { slug, name: `Salon ${slug}`, currency, subscription });
  return { id: data.business.id, slug };
}

export interface KeyFixture {
  id: string;
  secret: string;
}

export async function createKey(
  app: App,
  businessSlug: string,
  opts: Partial<{ kind: string; type: string; capabilities: string[]; tier: string; expiresAt: string; userId: string }> = {},
): Promise<KeyFixture> {
  const data = await adminOk(app, 'POST', `/businesses/${businessSlug}/api-keys`, {
    name: 'test key',
    type: opts.type ?? 'integration',
    kind: opts.kind ?? 'owner',
    capabilities: opts.capabilities ?? [...CAPABILITIES],
    ...(opts.tier ? { tier: opts.tier } : {}),
    ...(opts.expiresAt ? { expiresAt: opts.expiresAt } : {}),
    ...(opts.userId ? { userId: opts.userId } : {}),
  });
  return { id: data.apiKey.id, secret: data.apiKey.secret };
}

/** A public API call with a key; writes get a fresh Idempotency-Key unless one is given. */
export function api<T = any>(
  app: App,
  key: string | undefined,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH',
  url: string,
  payload?: unknown,
  headers: Record<string, string> = {},
) {
  const h: Record<string, string> = { ...headers };
  if (key !== undefined) h.authorization = `Bearer ${key}`;
  if (method !== 'GET' && !('idempotency-key' in h)) h['idempotency-key'] = randomUUID();
  return call<T>(app, {
    method,
    url: `/v1${url}`,
    headers: h,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

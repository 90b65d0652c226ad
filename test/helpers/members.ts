import type { InjectOptions } from 'fastify';
import { hashPassword } from '../../src/domain/members/password.ts';
import { newId } from '../../src/domain/ids.ts';
import type { MemberRole } from '../../src/domain/members/roles.ts';
import type { App } from '../../src/http/context.ts';
import type { Db } from '../../src/store/db.ts';
import { call } from './harness.ts';

export const MEMBER_PASSWORD = 'correct horse battery';

let hashed: Promise<string> | undefined;
let counter = 0;

/**
 * A member of a business with a password, written straight into the tables: the role tests need
 * dozens of members, and the invitation flow (its own tests) would spend a scrypt hash on each.
 */
export async function insertMember(
  db: Db,
  businessId: string,
  role: MemberRole,
): Promise<{ userId: string; email: string; password: string }> {
  hashed ??= hashPassword(MEMBER_PASSWORD);
  counter += 1;
  const userId = newId('usr');
  const email = `member-${process.pid}-${Date.now().toString(36)}-${counter}@example.com`;
  await db.query('INSERT INTO users (id, email, name, password_hash) VALUES ($1, $2, $3, $4)', [
    userId,
    email,
    `Member ${counter}`,
    await hashed,
  ]);
  await db.query('INSERT INTO memberships (business_id, user_id, role) VALUES ($1, $2, $3)', [businessId, userId, role]);
  return { userId, email, password: MEMBER_PASSWORD };
}

/** `Origin` of the app's PUBLIC_BASE_URL: what the dashboard's own requests carry. */
export function ownOrigin(app: App): string {
  return new URL(app.ctx.config.publicBaseUrl).origin;
}

/** Signs in; returns the `name=value` pair to send back as the Cookie header. */
export async function signIn(app: App, email: string, password: string): Promise<string> {
  const r = await call(app, { method: 'POST', url: '/admin/v1/session', payload: { email, password } });
  if (r.status !== 200) throw new Error(`sign-in -> ${r.status} ${r.raw}`);
  return cookiePair(r.headers['set-cookie']);
}

export function cookiePair(setCookie: string | string[] | undefined): string {
  const first = Array.isArray(setCookie) ? setCookie[0] : setCookie;
  if (!first) throw new Error('no Set-Cookie');
  return first.split(';')[0]!;
}

export async function memberCookie(app: App, db: Db, businessId: string, role: MemberRole) {
  const m = await insertMember(db, businessId, role);
  return { ...m, cookie: await signIn(app, m.email, m.password) };
}

/** A call with the session cookie, from the service's own origin unless `origin` says otherwise. */
export function asMember(
  app: App,
  cookie: string,
  method: InjectOptions['method'],
  url: string,
  payload?: unknown,
  origin: string | null = ownOrigin(app),
) {
  const headers: Record<string, string> = { cookie };
  if (origin !== null) headers.origin = origin;
  return call(app, {
    method,
    url: `/admin/v1${url}`,
    headers,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

/**
 * Makes `userId` a member of the business (creating an accountless user row when missing), directly
 * in the database: a personal key may only be issued to an existing member. Idempotent, so a fixed
 * id may be reused across runs sharing one PostgreSQL database.
 */
export async function addMember(db: Db, businessId: string, userId: string, role: MemberRole = 'frontDesk'): Promise<void> {
  await db.query('INSERT INTO users (id) VALUES ($1) ON CONFLICT DO NOTHING', [userId]);
  await db.query('INSERT INTO memberships (business_id, user_id, role) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [
    businessId,
    userId,
    role,
  ]);
}

import type { App } from '../../src/http/context.ts';
import { adminOk, call } from './harness.ts';
import { cookiePair, ownOrigin } from './members.ts';

/** The token of an accept link (`…/dashboard/accept-invitation?token=…`). */
export function tokenOf(acceptUrl: string): string {
  const token = new URL(acceptUrl).searchParams.get('token');
  if (!token) throw new Error(`no token in ${acceptUrl}`);
  return token;
}

/** The platform operator invites; answers the created invitation (with its acceptUrl). */
export async function invite(app: App, slug: string, email: string, role = 'owner') {
  return (await adminOk(app, 'POST', `/businesses/${slug}/invitations`, { email, role })).invitation;
}

export function accept(app: App, body: { token: string; name?: string; password: string }, origin: string | null = ownOrigin(app)) {
  return call(app, {
    method: 'POST',
    url: '/admin/v1/invitations/accept',
    headers: origin === null ? {} : { origin },
    payload: { name: 'Invited Person', ...body },
  });
}

/** Invites and accepts as a new account; answers the member and their cookie. */
export async function invitedMember(app: App, slug: string, role: string, password = 'a long enough password') {
  const email = `inv-${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const inv = await invite(app, slug, email, role);
  const r = await accept(app, { token: tokenOf(inv.acceptUrl), password });
  if (r.status !== 200) throw new Error(`accept -> ${r.status} ${r.raw}`);
  return { userId: r.body.data.member.id as string, email, password, cookie: cookiePair(r.headers['set-cookie']) };
}

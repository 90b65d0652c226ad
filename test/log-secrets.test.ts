/**
 * No secret (API key, operator token, webhook signing secret) and no guest contact data in any log
 * line, at any level: the log of a real API process at LOG_LEVEL=trace is scanned after requests
 * that carry all of them, well-formed and refused at every layer (Node's HTTP parser included), and
 * driver errors are logged through the process's logger into a real pino destination. The scan
 * (helpers/log-scan.ts) looks for each value as text, hex, base64 and as a JSON byte array.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { CAPABILITIES } from '../src/domain/capabilities.ts';
import { createLogger } from '../src/logger.ts';
import { dbTargets } from './helpers/databases.ts';
import { uniqueSlug } from './helpers/fixtures.ts';
import { findLeaks, type Secret } from './helpers/log-scan.ts';
import { freePort, waitFor } from './helpers/processes.ts';
import { rawExchange } from './helpers/raw-http.ts';

const ROOT = join(import.meta.dirname, '..');
const GUEST_PHONE = `+3670${String(Date.now()).slice(-7)}`;
const GUEST_EMAIL = `leak.probe.${process.pid}@guest.invalid`;
const guestBody = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ guest: { name: 'Leak Probe', phone: GUEST_PHONE, email: GUEST_EMAIL }, ...extra });

/** The guest phone is looked for by its digits, which every written form of it contains. */
function guestSecrets(): Secret[] {
  return [
    { name: 'guest phone', value: GUEST_PHONE.replace(/\D/g, '') },
    { name: 'guest e-mail', value: GUEST_EMAIL },
  ];
}

describe('the log scan itself', () => {
  test('finds a secret as text, hex, base64 at every alignment, base64url and a JSON byte array', () => {
    const secret = { name: 'key', value: `bka_${randomBytes(24).toString('base64url')}` };
    for (const pad of ['', 'a', 'ab', 'abc']) {
      const packet = Buffer.from(`POST / HTTP/1.1\r\n${pad}Authorization: Bearer ${secret.value}\r\n\r\n`);
      for (const [form, text] of [
        ['text', JSON.stringify({ msg: packet.toString() })],
        ['hex', JSON.stringify({ raw: packet.toString('hex') })],
        ['base64', JSON.stringify({ raw: packet.toString('base64') })],
        ['base64url', JSON.stringify({ raw: packet.toString('base64url') })],
        ['byte array', JSON.stringify({ rawPacket: packet })],
        ['spaced byte array', `[${[...packet].join(', ')}]`],
      ] as const) {
        assert.ok(findLeaks(text, [secret]).length > 0, `${form}, ${pad.length} bytes in: not found`);
      }
    }
    assert.deepEqual(findLeaks(JSON.stringify({ msg: 'clean', n: [1, 2, 3] }), [secret]), []);
  });
});

describe('driver errors logged through the process logger (a real pino destination, trace level)', () => {
  for (const target of dbTargets()) {
    test(`a ${target.name} error carries no guest data into the line`, async () => {
      const db = await target.open();
      let lines = '';
      const sink = new Writable({
        write(chunk, _enc, done) {
          lines += String(chunk);
          done();
        },
      });
      const log = createLogger('trace', sink);
      try {
        // a unique violation: PostgreSQL names the value in `detail`, PGlite adds the query's parameters
        const err = await db
          .transaction(async (tx) => {
            await tx.query('CREATE TEMP TABLE leak_probe (email text UNIQUE, phone text) ON COMMIT DROP');
            await tx.query('INSERT INTO leak_probe VALUES ($1, $2)', [GUEST_EMAIL, GUEST_PHONE]);
            await tx.query('INSERT INTO leak_probe VALUES ($1, $2)', [GUEST_EMAIL, GUEST_PHONE]);
          })
          .then(
            () => undefined,
            (e: unknown) => e as Error & Record<string, unknown>,
          );
        assert.ok(err, 'the second insert must fail');
        assert.ok(
          JSON.stringify({ ...err }).includes(GUEST_EMAIL),
          `the ${target.name} error itself holds the e-mail (else this test proves nothing): ${JSON.stringify({ ...err })}`,
        );
        log.error({ err, reqId: 'req_probe' }, 'unhandled error');
        log.error(err);
        log.trace({ error: err, context: { cause: err } }, 'nested');
        log.warn({ err: new Error('wrapped', { cause: err }) }, 'caused');
        const raw = Object.assign(new Error('Parse Error: Invalid header value char'), {
          code: 'HPE_INVALID_HEADER_TOKEN',
          rawPacket: Buffer.from(`POST /v1/bookings HTTP/1.1\r\n\r\n${guestBody()}`),
        });
        log.trace({ err: raw }, 'client error');
        log.debug({ body: Buffer.from(guestBody()), view: new Uint8Array(Buffer.from(GUEST_EMAIL)) }, 'bytes');
        assert.ok(lines.split('\n').length > 6, lines);
        assert.match(lines, /duplicate key|unique/i, 'the error is still described');
        assert.deepEqual(findLeaks(lines, guestSecrets()), []);
      } finally {
        await db.close();
      }
    });
  }
});

interface ApiProcess {
  url: string;
  port: number;
  output(): string;
  stop(): Promise<void>;
}

/** `node --import tsx src/main.ts` with every line it writes kept (nothing is dropped, unlike helpers/api-process.ts). */
async function startLoggingApi(env: Record<string, string>): Promise<ApiProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const chunks: Buffer[] = [];
  child.stdout.on('data', (b: Buffer) => chunks.push(b));
  child.stderr.on('data', (b: Buffer) => chunks.push(b));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const output = () => Buffer.concat(chunks).toString('utf8');
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(timer);
  };
  try {
    await waitFor(`the API on ${url}`, async () => (await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1000) })).ok, 60_000, 100);
  } catch (err) {
    await stop();
    throw new Error(`${(err as Error).message}\n${output()}`);
  }
  return { url, port, output, stop };
}

const targets: Array<{ name: string; env: Record<string, string> }> = [{ name: 'pglite', env: { DATA_DIR: 'memory://' } }];
if (process.env.DATABASE_URL) targets.push({ name: 'postgres', env: { DATABASE_URL: process.env.DATABASE_URL } });

for (const target of targets) {
  describe(`the log of a real API process at LOG_LEVEL=trace [${target.name}]`, () => {
    const adminToken = `adm-${randomBytes(18).toString('hex')}`;
    let api: ApiProcess;
    before(async () => {
      api = await startLoggingApi({
        ...target.env,
        ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
        LOG_LEVEL: 'trace',
        ADMIN_TOKEN: adminToken,
        SEED_DEMO: 'false',
        WEBHOOK_WORKER: 'false',
      });
    });
    after(() => api.stop());

    test('holds no API key, operator token, webhook secret, guest phone or e-mail, in any encoding', async () => {
      const admin = { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' };
      const slug = uniqueSlug('logs');
      const post = async (path: string, headers: Record<string, string>, body: string, method = 'POST') => {
        const res = await fetch(`${api.url}${path}`, { method, headers, body });
        return { status: res.status, json: (await res.json()) as any };
      };
      const biz = await post(
        '/admin/v1/businesses',
        admin,
        JSON.stringify({ slug, name: 'Log Probe', currency: 'HUF', subscription: { plan: 'pro', status: 'active' } }),
      );
      assert.equal(biz.status, 200, JSON.stringify(biz.json));
      const issued = await post(
        `/admin/v1/businesses/${slug}/api-keys`,
        admin,
        JSON.stringify({ name: 'log probe', type: 'integration', kind: 'owner', capabilities: [...CAPABILITIES] }),
      );
      const apiKey: string = issued.json.data.apiKey.secret;
      const keyed = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
      const hook = await post(
        `/v1/webhooks/config?salonSlug=${slug}`,
        { ...keyed, 'idempotency-key': randomUUID() },
        JSON.stringify({ url: 'https://hooks.example.com/booking' }),
        'PUT',
      );
      const webhookSecret: string = hook.json.data?.webhook?.signingSecret;
      assert.match(webhookSecret ?? '', /^[0-9a-f]{64}$/, JSON.stringify(hook.json));

      // Everything below carries every secret; none of it may show in the log.
      const everything = guestBody({ salonSlug: slug, note: webhookSecret });
      const headersOf = (token: string) =>
        `Authorization: Bearer ${token}\r\nIdempotency-Key: ${randomUUID()}\r\nX-Signing-Secret: ${webhookSecret}\r\nContent-Type: application/json\r\n`;
      const withKey = { ...keyed, 'idempotency-key': randomUUID(), 'x-signing-secret': webhookSecret };
      await post('/v1/bookings', withKey, everything);
      await post('/v1/bookings', { ...withKey, 'content-type': 'text/plain' }, everything);
      await post('/v1/bookings', withKey, `${everything.slice(0, -1)}, "pad": "${'x'.repeat(2 * 1024 * 1024)}"}`);
      await post(`/admin/v1/businesses/${slug}/api-keys`, { ...admin, 'x-signing-secret': webhookSecret }, everything);
      // a key put where it does not belong, in the query string
      await fetch(`${api.url}/v1/subscription?salonSlug=${slug}&api_key=${apiKey}`, { headers: keyed });
      for (const token of [apiKey, adminToken]) {
        const path = token === apiKey ? '/v1/bookings' : `/admin/v1/businesses/${slug}/api-keys`;
        const head = `POST ${path} HTTP/1.1\r\nHost: t\r\n${headersOf(token)}`;
        const refused = [
          [`${head}Transfer-Encoding: chunked\r\nContent-Length: ${everything.length}\r\n\r\n${everything}`],
          [`${head}X-Guest: ${GUEST_EMAIL}\u0001${GUEST_PHONE}\r\nContent-Length: ${everything.length}\r\n\r\n${everything}`],
          [`FOO ${path} HTTP/1.1\r\nHost: t\r\n${headersOf(token)}Content-Length: ${everything.length}\r\n\r\n${everything}`],
          [`${head}X-Pad: ${'p'.repeat(17_000)}\r\nContent-Length: ${everything.length}\r\n\r\n${everything}`],
          [`${head}Transfer-Encoding: chunked\r\n\r\n${everything.length.toString(16)}\r\n${everything}\r\n`, `zz\r\n${everything}\r\n`],
        ];
        for (const parts of refused) {
          const r = await rawExchange(api.port, parts, 50);
          assert.match(r.received, /^HTTP\/1\.1 4\d\d /, `answered: ${r.received.slice(0, 200)}`);
        }
      }
      // A member's way in: an invitation opened and accepted, sign-in right and wrong, the cookie
      // used for a read and for a refused cross-site write.
      const invited = await post(
        `/admin/v1/businesses/${slug}/invitations`,
        admin,
        JSON.stringify({ email: `owner.${process.pid}@salon.invalid`, role: 'owner' }),
      );
      assert.equal(invited.status, 200, JSON.stringify(invited.json));
      const invitationToken = new URL(invited.json.data.invitation.acceptUrl).searchParams.get('token')!;
      const password = `pw-${randomBytes(12).toString('hex')}`;
      await fetch(`${api.url}/dashboard/accept-invitation?token=${invitationToken}`);
      const accepted = await fetch(`${api.url}/admin/v1/invitations/accept`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: invitationToken, name: 'Log Owner', password }),
      });
      assert.equal(accepted.status, 200, await accepted.text());
      const sessionValue = (accepted.headers.get('set-cookie') ?? '').split(';')[0]!.split('=')[1]!;
      assert.match(sessionValue, /^[A-Za-z0-9_-]{43}$/);
      const member = { cookie: `bk_session=${sessionValue}`, 'content-type': 'application/json' };
      await post(
        '/admin/v1/session',
        { 'content-type': 'application/json' },
        JSON.stringify({ email: `owner.${process.pid}@salon.invalid`, password }),
      );
      await post(
        '/admin/v1/session',
        { 'content-type': 'application/json' },
        JSON.stringify({ email: `owner.${process.pid}@salon.invalid`, password: `${password}x` }),
      );
      await fetch(`${api.url}/admin/v1/session`, { headers: member });
      await post(`/admin/v1/businesses/${slug}/locations`, { ...member, origin: 'https://evil.example' }, JSON.stringify({ password }));
      await api.stop();

      const log = api.output();
      assert.ok(!log.includes('scrypt$'), 'no password hash in the log');
      assert.match(log, /incoming request/, 'requests were logged');
      assert.equal(log.match(/client error answered/g)?.length, 10, 'each request the parser refused was logged');
      const leaks = findLeaks(log, [
        { name: 'API key', value: apiKey },
        { name: 'operator token', value: adminToken },
        { name: 'webhook secret', value: webhookSecret },
        { name: 'password', value: password },
        { name: 'session cookie value', value: sessionValue },
        { name: 'invitation token', value: invitationToken },
        ...guestSecrets(),
      ]);
      assert.deepEqual(leaks.slice(0, 10), [], `${leaks.length} leaks`);
    });
  });
}

import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { createLogger } from '../src/logger.ts';

function capture(): { stream: Writable; text: () => string } {
  let out = '';
  const stream = new Writable({
    write(chunk, _enc, done) {
      out += chunk.toString();
      done();
    },
  });
  return { stream, text: () => out };
}

test('an invitation token in a logged URL is masked, the rest of the URL kept', () => {
  const token = `Zx9_${'a'.repeat(39)}`;
  const { stream, text } = capture();
  const log = createLogger('info', stream);
  log.info({ req: { url: `/dashboard/accept-invitation?token=${token}&x=1` } }, `incoming GET /dashboard/accept-invitation?TOKEN=${token}`);
  const line = text();
  assert.ok(!line.includes(token), line);
  assert.match(line, /accept-invitation\?token=\[redacted\]&x=1/);
  assert.match(line, /\?TOKEN=\[redacted\]/);
});

test('a password or session cookie passed as a field is masked', () => {
  const { stream, text } = capture();
  const log = createLogger('info', stream);
  log.info({ body: { email: 'a@b.example', password: 'hunter2hunter2' }, headers: { cookie: 'bk_session=abc' } }, 'x');
  const line = text();
  assert.ok(!line.includes('hunter2hunter2') && !line.includes('bk_session=abc') && !line.includes('a@b.example'), line);
});

test('a deposit payment link in a logged URL is masked after the booking id', () => {
  const { stream, text } = capture();
  const log = createLogger('info', stream);
  log.info({ req: { url: '/pay/deposit/bkg_abc/NONCE123.MAC456' } }, 'incoming request');
  const line = text();
  assert.ok(!line.includes('NONCE123.MAC456'), line);
  assert.match(line, /\/pay\/deposit\/bkg_abc\/\[redacted\]/);
});

test('a calendar feed address in a logged URL is masked, token and all', () => {
  const token = `Qk3-${'b'.repeat(39)}`;
  const { stream, text } = capture();
  const log = createLogger('info', stream);
  log.info({ req: { url: `/ical/${token}.ics` } }, `feed https://salon.example/ical/${token}.ics fetched`);
  const line = text();
  assert.ok(!line.includes(token), line);
  assert.match(line, /"url":"\/ical\/\[redacted\]"/);
  assert.match(line, /salon\.example\/ical\/\[redacted\] fetched/);
});

test("a waitlist offer's claim link and an entry's withdraw link are masked in a logged URL", () => {
  const claim = `Cl4-${'c'.repeat(39)}`;
  const withdraw = `Wd5_${'d'.repeat(39)}`;
  const { stream, text } = capture();
  const log = createLogger('info', stream);
  log.info({ req: { url: `/claim/${claim}?lang=hu` } }, `incoming POST /waitlist/withdraw/${withdraw}`);
  const line = text();
  assert.ok(!line.includes(claim) && !line.includes(withdraw), line);
  assert.match(line, /"url":"\/claim\/\[redacted\]\?lang=hu"/);
  assert.match(line, /\/waitlist\/withdraw\/\[redacted\]/);
});

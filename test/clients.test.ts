/**
 * Clients (clients-and-reports.md "Clients"): every booking is linked to a client of its business by
 * phone, else email, else a new one; the list with its search (any case, with or without accents,
 * phones by digits), the figures, the client read with history, the patch of name, notes and tags,
 * `clientId` on operator booking reads, who may read whom, and one client for two first bookings
 * of one phone at once.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { bookingHarness, createOk, day, operatorOk, sql } from './helpers/bookings.ts';
import { dbTargets } from './helpers/databases.ts';
import { createSalon, type SalonFixture } from './helpers/fixtures.ts';
import { admin, adminOk, type Harness } from './helpers/harness.ts';
import { asMember, memberCookie } from './helpers/members.ts';

const EVA = { name: 'Kiss Éva', phone: '+36301112233', email: 'eva.kiss@example.com' };

for (const target of dbTargets()) {
  describe(`clients [${target.name}]`, () => {
    let h: Harness;
    let salon: SalonFixture;
    let slug: string;
    before(async () => {
      h = await bookingHarness(target);
      salon = await createSalon(h.app);
      slug = salon.business.slug;
    });
    after(() => h.close());

    const book = (guest: Record<string, unknown>, date: string, startTime: string, staff = 0) =>
      createOk(h, salon, { guest, date, startTime, staffId: salon.staff[staff]!.id });
    const clientIdOf = async (bookingId: string): Promise<string> =>
      (await adminOk(h.app, 'GET', `/bookings/${bookingId}`)).booking.clientId;
    const search = async (q: string) =>
      (await adminOk(h.app, 'GET', `/businesses/${slug}/clients?q=${encodeURIComponent(q)}`)).clients.map((c: { name: string }) => c.name);

    test('a phone finds its client, else the email; the first name seen stays; a new guest is a new client', async () => {
      const first = await book(EVA, day(2), '09:00');
      const again = await book({ ...EVA, name: 'Éva K.' }, day(3), '09:00');
      const byEmail = await book({ name: 'Éva at work', phone: '+36309998877', email: 'EVA.KISS@example.com' }, day(4), '09:00');
      const other = await book({ name: 'Nagy Ödön', phone: '+36305554433' }, day(2), '10:00');
      const eva = await clientIdOf(first.bookingId);
      assert.match(eva, /^cli_[0-9a-z]{20}$/);
      assert.equal(await clientIdOf(again.bookingId), eva);
      assert.equal(await clientIdOf(byEmail.bookingId), eva);
      const odon = await clientIdOf(other.bookingId);
      assert.notEqual(odon, eva);

      const client = (await adminOk(h.app, 'GET', `/clients/${eva}`)).client;
      assert.equal(client.name, 'Kiss Éva', 'the name first seen');
      assert.equal(client.phone, EVA.phone);
      assert.equal(client.email, EVA.email);
      // each booking keeps its own guest name; history newest appointment first
      assert.deepEqual(
        client.bookings.map((b: { bookingId: string; guest: { name: string } }) => [b.bookingId, b.guest.name]),
        [
          [byEmail.bookingId, 'Éva at work'],
          [again.bookingId, 'Éva K.'],
          [first.bookingId, 'Kiss Éva'],
        ],
      );
      // the list's answer for the same client
      const listed = (await adminOk(h.app, 'GET', `/businesses/${slug}/clients?q=kiss`)).clients as Array<{ nextVisitAt: string }>;
      const nextVisitAt = listed[0]?.nextVisitAt ?? '';
      assert.equal(Date.parse(nextVisitAt), Date.parse(`${day(2)}T07:00:00Z`), '09:00 Budapest summer time');
      assert.deepEqual(listed, [
        {
          id: eva,
          name: 'Kiss Éva',
          phone: EVA.phone,
          email: EVA.email,
          visits: 0,
          noShows: 0,
          lastVisitAt: null,
          nextVisitAt,
          tags: [],
        },
      ]);
    });

    test('search: part of a name in any case, with or without accents; an email; a phone by its digits', async () => {
      assert.deepEqual(await search('eva'), ['Kiss Éva']);
      assert.deepEqual(await search('ÉVA'), ['Kiss Éva']);
      assert.deepEqual(await search('odon'), ['Nagy Ödön']);
      assert.deepEqual(await search('Ödön'), ['Nagy Ödön']);
      assert.deepEqual(await search('eva.kiss@'), ['Kiss Éva']);
      assert.deepEqual(await search('30 555 44'), ['Nagy Ödön']);
      assert.deepEqual(await search('+36 30 111'), ['Kiss Éva']);
      assert.deepEqual(await search('zz'), []);
      // LIKE's own wildcards are plain characters in a search
      assert.deepEqual(await search('%%'), []);
      assert.deepEqual(await search('__'), []);
      const short = await admin(h.app, 'GET', `/businesses/${slug}/clients?q=e`);
      assert.equal(short.status, 400, short.raw);
      assert.equal(short.body.error.code, 'request.validation_failed');
    });

    test('the list is by name and pages with a cursor bound to its search', async () => {
      for (const [i, name] of ['Ábel Aladár', 'Béla Bodnár', 'Cecil Csató'].entries()) {
        await book({ name, phone: `+3630700000${i}` }, day(5), `${10 + i}:00`);
      }
      const first = await admin(h.app, 'GET', `/businesses/${slug}/clients?limit=2`);
      assert.equal(first.status, 200, first.raw);
      assert.deepEqual(
        first.body.data.clients.map((c: { name: string }) => c.name),
        ['Ábel Aladár', 'Béla Bodnár'],
      );
      const cursor = first.body.meta.cursor as string;
      assert.ok(cursor);
      const second = await adminOk(h.app, 'GET', `/businesses/${slug}/clients?limit=2&cursor=${encodeURIComponent(cursor)}`);
      assert.deepEqual(
        second.clients.map((c: { name: string }) => c.name),
        ['Cecil Csató', 'Kiss Éva'],
      );
      const foreign = await admin(h.app, 'GET', `/businesses/${slug}/clients?limit=2&q=ab&cursor=${encodeURIComponent(cursor)}`);
      assert.equal(foreign.status, 400, foreign.raw);
      assert.equal(foreign.body.error.code, 'request.invalid_cursor');
    });

    test('visits, no-shows, the last visit and the next one follow the bookings', async () => {
      const guest = { name: 'Figures Flóra', phone: '+36301230000' };
      const done = await book(guest, day(1), '09:00', 1);
      const missed = await book(guest, day(1), '11:00', 1);
      const next = await book(guest, day(8), '15:00', 1);
      assert.equal(next.status, 'confirmed');
      const later = await book(guest, day(9), '15:00', 1);
      await operatorOk(h, later.bookingId, 'cancel');
      h.clock.now = new Date(`${day(1)}T12:00:00Z`);
      try {
        await operatorOk(h, done.bookingId, 'complete');
        await operatorOk(h, missed.bookingId, 'no-show');
        const id = await clientIdOf(done.bookingId);
        const c = (await adminOk(h.app, 'GET', `/clients/${id}`)).client;
        assert.equal(c.visits, 1);
        assert.equal(c.noShows, 1);
        assert.equal(Date.parse(c.lastVisitAt), Date.parse(`${day(1)}T07:00:00Z`));
        assert.equal(Date.parse(c.nextVisitAt), Date.parse(`${day(8)}T13:00:00Z`), 'the cancelled one does not count');
        assert.equal(c.bookings.length, 4);
      } finally {
        h.clock.now = new Date('2031-06-01T12:00:00.000Z');
      }
    });

    test('patch: name, notes and tags (trimmed, a repeat kept once); bad input refused; bookings keep their guest name', async () => {
      const b = await book({ name: 'Patch Petra', phone: '+36301231111' }, day(6), '09:00');
      const id = await clientIdOf(b.bookingId);
      const changed = (
        await adminOk(h.app, 'PATCH', `/clients/${id}`, {
          name: 'Petra Patch',
          notes: 'Allergic to ammonia.',
          tags: [' patch test ', 'VIP', 'vip', 'Patch test'],
        })
      ).client;
      assert.equal(changed.name, 'Petra Patch');
      assert.equal(changed.notes, 'Allergic to ammonia.');
      assert.deepEqual(changed.tags, ['patch test', 'VIP']);
      assert.equal(changed.bookings[0].guest.name, 'Patch Petra');
      const kept = (await adminOk(h.app, 'PATCH', `/clients/${id}`, { notes: '' })).client;
      assert.equal(kept.name, 'Petra Patch');
      assert.deepEqual(kept.tags, ['patch test', 'VIP']);
      assert.deepEqual(await search('petra'), ['Petra Patch']);

      for (const body of [
        { notes: 'x'.repeat(5001) },
        { tags: Array.from({ length: 21 }, (_, i) => `t${i}`) },
        { tags: ['x'.repeat(41)] },
        { tags: ['   '] },
        { name: '  ' },
        { phone: '+36301231111' },
      ]) {
        const r = await admin(h.app, 'PATCH', `/clients/${id}`, body);
        assert.equal(r.status, 400, `${JSON.stringify(body).slice(0, 60)}: ${r.raw}`);
        assert.equal(r.body.error.code, 'request.validation_failed');
      }
      const missing = await admin(h.app, 'GET', '/clients/cli_00000000000000000000');
      assert.equal(missing.status, 404, missing.raw);
      assert.equal(missing.body.error.code, 'client.not_found');
    });

    test('every role reads and annotates; a member of another business cannot reach the client', async () => {
      const b = await book({ name: 'Role Rita', phone: '+36301232222' }, day(6), '10:00');
      const id = await clientIdOf(b.bookingId);
      const deskCookie = (await memberCookie(h.app, h.db, salon.business.id, 'frontDesk')).cookie;
      const desk = (method: 'GET' | 'PATCH', url: string, body?: unknown) => asMember(h.app, deskCookie, method, url, body);
      const read = await desk('GET', `/clients/${id}`);
      assert.equal(read.status, 200, read.raw);
      const note = await desk('PATCH', `/clients/${id}`, { notes: 'Prefers mornings.' });
      assert.equal(note.status, 200, note.raw);
      const list = await desk('GET', `/businesses/${slug}/clients?q=rita`);
      assert.equal(list.status, 200, list.raw);

      const elsewhere = await createSalon(h.app);
      const strangerCookie = (await memberCookie(h.app, h.db, elsewhere.business.id, 'owner')).cookie;
      const stranger = (method: 'GET' | 'PATCH', url: string, body?: unknown) => asMember(h.app, strangerCookie, method, url, body);
      for (const r of [await stranger('GET', `/clients/${id}`), await stranger('PATCH', `/clients/${id}`, { notes: 'x' })]) {
        assert.equal(r.status, 403, r.raw);
        assert.equal(r.body.error.code, 'auth.scope_mismatch');
      }
      // the other business's guest of the same phone is its own client
      const there = await createOk(h, elsewhere, { guest: { name: 'Role Rita', phone: '+36301232222' }, date: day(6), startTime: '10:00' });
      assert.notEqual(await clientIdOf(there.bookingId), id);
    });

    test('two first bookings of one new phone at once make one client', async () => {
      const guest = { name: 'Twin Tímea', phone: '+36301233333' };
      const [a, b] = await Promise.all([book(guest, day(7), '09:00', 0), book(guest, day(7), '09:00', 1)]);
      assert.equal(await clientIdOf(a.bookingId), await clientIdOf(b.bookingId));
      const rows = await sql<{ n: number }>(h, 'SELECT count(*)::int AS n FROM clients WHERE business_id = $1 AND phone = $2', [
        salon.business.id,
        guest.phone,
      ]);
      assert.equal(rows[0]!.n, 1);
    });
  });
}

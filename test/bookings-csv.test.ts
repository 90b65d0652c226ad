/**
 * The bookings CSV (clients-and-reports.md "Reports"): RFC 4180 in UTF-8 with its header row, a
 * name with a comma and a quote quoted, accents kept, an erased client's name, rows streamed in
 * keyset pages (ties of one start broken by id), and JSON errors for a bad query.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { reportPeriod } from '../src/domain/reports/period.ts';
import { bookingsCsv } from '../src/use-cases/reports/bookings-csv.ts';
import { bookingHarness, createOk, day } from './helpers/bookings.ts';
import { dbTargets } from './helpers/databases.ts';
import { createSalon, type SalonFixture } from './helpers/fixtures.ts';
import { admin, adminOk, type Harness } from './helpers/harness.ts';

/** A strict RFC 4180 reader: CRLF records, quoted fields with doubled quotes; anything else throws. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let i = 0;
  while (i < text.length) {
    const row: string[] = [];
    for (;;) {
      let field = '';
      if (text[i] === '"') {
        i++;
        for (;;) {
          const q = text.indexOf('"', i);
          if (q < 0) throw new Error('unterminated quote');
          field += text.slice(i, q);
          i = q + 1;
          if (text[i] !== '"') break;
          field += '"';
          i++;
        }
      } else {
        const end = text.slice(i).search(/[,\r\n"]/);
        field = end < 0 ? text.slice(i) : text.slice(i, i + end);
        i += field.length;
        if (text[i] === '"') throw new Error(`a bare quote at ${i}`);
      }
      row.push(field);
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text.startsWith('\r\n', i)) {
        i += 2;
        break;
      }
      throw new Error(`a record must end with CRLF at ${i}`);
    }
    rows.push(row);
  }
  return rows;
}

const HEADER = ['reference', 'date', 'start', 'end', 'service', 'staff', 'status', 'source', 'price', 'currency', 'client'];

for (const target of dbTargets()) {
  describe(`bookings CSV [${target.name}]`, () => {
    let h: Harness;
    let salon: SalonFixture;
    let slug: string;
    const refs: string[] = [];
    before(async () => {
      h = await bookingHarness(target);
      salon = await createSalon(h.app);
      slug = salon.business.slug;
      const book = async (name: string, phone: string, date: string, startTime: string, staff: number) => {
        const b = await createOk(h, salon, { guest: { name, phone }, date, startTime, staffId: salon.staff[staff]!.id });
        refs.push(b.publicReference);
        return b;
      };
      await book('Kovács, "Kati"', '+36301000011', day(2), '10:00', 0);
      // two at one start: the page boundary falls between them when pages are 2 long
      await book('Őri Ürsula', '+36301000012', day(3), '09:00', 0);
      await book('Tóth Péter', '+36301000013', day(3), '09:00', 1);
      const erased = await book('Gone Gábor', '+36301000014', day(4), '11:00', 1);
      await book('Kovács, "Kati"', '+36301000011', day(5), '16:30', 0);
      await book('Out Of Range', '+36301000015', day(40), '10:00', 0);
      const clientId = (await adminOk(h.app, 'GET', `/bookings/${erased.bookingId}`)).booking.clientId;
      await adminOk(h.app, 'POST', `/clients/${clientId}/erase`);
    });
    after(() => h.close());

    test('header and rows: RFC 4180 quoting, UTF-8 accents, an erased client, earliest start first', async () => {
      const r = await admin(h.app, 'GET', `/businesses/${slug}/bookings.csv?from=2031-06-01&to=2031-06-30`);
      assert.equal(r.status, 200, r.raw);
      assert.equal(r.headers['content-type'], 'text/csv; charset=utf-8');
      assert.equal(r.headers['content-disposition'], `attachment; filename="bookings-${slug}-2031-06-01-2031-06-30.csv"`);
      const text = r.raw;
      assert.ok(text.endsWith(',"Kovács, ""Kati"""\r\n'), 'the last row ends with the quoted name');
      const rows = parseCsv(text);
      assert.deepEqual(rows[0], HEADER);
      const body = rows.slice(1);
      assert.equal(body.length, 5, 'the booking of day 40 is outside June');
      // the two 09:00 bookings keep one order: by id, whichever staff member
      const nine = body.slice(1, 3).map((row) => row[10]);
      assert.deepEqual([...nine].sort(), ['Tóth Péter', 'Őri Ürsula']);
      const byRef = new Map(body.map((row) => [row[0], row]));
      assert.deepEqual(byRef.get(refs[0]!), [
        refs[0],
        day(2),
        '10:00',
        '10:30',
        'Haircut',
        'Anna',
        'confirmed',
        'api',
        '5000',
        'HUF',
        'Kovács, "Kati"',
      ]);
      assert.deepEqual(byRef.get(refs[3]!), [
        refs[3],
        day(4),
        '11:00',
        '11:30',
        'Haircut',
        'Bence',
        'cancelled',
        'api',
        '5000',
        'HUF',
        'Erased client',
      ]);
      assert.deepEqual(
        body.map((row) => row[1]),
        [day(2), day(3), day(3), day(4), day(5)],
      );
      assert.ok(!text.includes('+3630'), 'no phone number in the export');
    });

    test('streamed page by page: pages of 2 give the same bytes as one page', async () => {
      const period = reportPeriod('2031-06-01', '2031-06-30');
      const read = async (pageSize: number) => {
        let out = '';
        for await (const chunk of await bookingsCsv(h.db, slug, undefined, period, pageSize)) out += chunk.toString();
        return out;
      };
      const whole = await read(1000);
      assert.equal(parseCsv(whole).length, 6);
      assert.equal(await read(2), whole);
      assert.equal(await read(1), whole);
    });

    test('bad input answers the JSON envelope', async () => {
      const backwards = await admin(h.app, 'GET', `/businesses/${slug}/bookings.csv?from=2031-06-30&to=2031-06-01`);
      assert.equal(backwards.status, 400, backwards.raw);
      assert.equal(backwards.body.error.code, 'request.validation_failed');
      const long = await admin(h.app, 'GET', `/businesses/${slug}/bookings.csv?from=2031-01-01&to=2032-06-01`);
      assert.equal(long.status, 400, long.raw);
      const nowhere = await admin(h.app, 'GET', `/businesses/${slug}/bookings.csv?from=2031-06-01&to=2031-06-30&locationSlug=nowhere`);
      assert.equal(nowhere.status, 404, nowhere.raw);
      assert.equal(nowhere.body.error.code, 'request.not_found');
      assert.match(String(nowhere.headers['content-type']), /application\/json/);
    });
  });
}

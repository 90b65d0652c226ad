/**
 * Messages people understand (issue 27 item 4): every code of the closed catalog, and the real
 * validation answers of the writes the dashboard's forms make, put into words by the dashboard's
 * one mapper (dashboard/src/lib/form-errors.ts), in English and Hungarian. No word of it may be a
 * JSON path, a regular expression or a catalog code, and Hungarian must not fall back to English.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { AppError, ERROR_CODES } from '../src/domain/errors.ts';
import { ApiError, type ErrorCode } from '../dashboard/src/lib/api.ts';
import { errorWords, formErrors, issueWords } from '../dashboard/src/lib/form-errors.ts';
import { en } from '../dashboard/src/lib/i18n/en.ts';
import { hu } from '../dashboard/src/lib/i18n/hu.ts';
import type { PageWords } from '../dashboard/src/lib/i18n/page-words.ts';
import { admin, startHarness, type Harness } from './helpers/harness.ts';
import { dbTargets } from './helpers/databases.ts';
import { createSalon, type SalonFixture } from './helpers/fixtures.ts';

const LANGS = [en, hu];

function assertPlain(message: string, code: string, context: string): void {
  assert.ok(message.trim().length > 0, `${context}: empty`);
  assert.ok(!message.includes('body.'), `${context}: a JSON path in "${message}"`);
  assert.ok(!message.includes('must match pattern'), `${context}: a pattern in "${message}"`);
  assert.ok(!message.includes(code), `${context}: the code in "${message}"`);
  assert.ok(!/\^\[|\]\+\$|\\d/.test(message), `${context}: a regular expression in "${message}"`);
}

/** Each sentence of a message once: a field or form never says the same thing twice. */
function assertOnce(message: string, context: string): void {
  const sentences = message.split(/(?<=[.!?])\s+/).filter(Boolean);
  assert.equal(new Set(sentences).size, sentences.length, `${context}: repeated in "${message}"`);
}

describe('the error catalog in words', () => {
  test('the dashboard has words for every code of the server, different in Hungarian', () => {
    assert.deepEqual(Object.keys(en.errors).sort(), [...ERROR_CODES].sort());
    assert.deepEqual(Object.keys(hu.errors).sort(), [...ERROR_CODES].sort());
    for (const code of ERROR_CODES) assert.notEqual(hu.errors[code], en.errors[code], code);
  });

  test('every code, with its default message and with a programmer-facing one, comes out plain in both languages', () => {
    for (const code of ERROR_CODES) {
      const answers = [
        new ApiError(new AppError(code).status, code, new AppError(code).message),
        new ApiError(400, code, `body.guest.phone must match pattern "^[0-9]+$" (${code})`),
      ];
      for (const error of answers) {
        const said = LANGS.map((t) => errorWords(error, t));
        for (const [i, m] of said.entries()) assertPlain(m, code, `${code} ${LANGS[i]!.lang}`);
        assert.notEqual(said[1], said[0], `${code}: Hungarian is not English`);
        const form = LANGS.map((t) => formErrors(error, [], {}, t).form ?? '');
        assert.deepEqual(form, said, 'formErrors says what errorWords says');
      }
    }
  });

  test('a phone and a slug have their own sentences; numbers are kept, patterns are not', () => {
    assert.equal(
      issueWords('body.guest.phone', 'is not a usable phone number', en),
      'Enter a phone number we can call, like +36 30 123 4567.',
    );
    assert.equal(
      issueWords('body.slug', 'must match pattern "^[a-z0-9]+(-[a-z0-9]+)*$"', en),
      'Use lower-case letters, digits and hyphens.',
    );
    assert.equal(issueWords('body.password', 'must NOT have fewer than 10 characters', hu), 'A jelszó legalább 10 karakter legyen.');
    assert.equal(issueWords('body.name', 'must NOT have more than 100 characters', en), 'Enter at most 100 characters.');
  });
});

/** Every word of a catalog, a function's with sample arguments (a number, else a name, else names), by its key path. */
function leaves(words: unknown, path = ''): Array<[string, string]> {
  if (typeof words === 'string') return [[path, words]];
  if (typeof words === 'function') {
    const fn = words as (...args: unknown[]) => unknown;
    let said: unknown;
    for (const sample of [2, 'Ada', ['Ada', 'Bea']]) {
      try {
        said = fn(...Array.from({ length: fn.length }, () => sample));
        break;
      } catch {
        // the next kind of argument
      }
    }
    assert.equal(typeof said, 'string', `${path}: says a string`);
    return [[path, said as string]];
  }
  assert.ok(words !== null && typeof words === 'object', `${path}: words, a function or a section`);
  return Object.entries(words).flatMap(([k, v]) => leaves(v, path ? `${path}.${k}` : k));
}

/** The shape of a catalog: each key path with whether it is a word, a function or a section. */
function shape(words: unknown, path = ''): string[] {
  if (typeof words !== 'object' || words === null) return [`${path}: ${typeof words}`];
  return Object.entries(words).flatMap(([k, v]) => shape(v, path ? `${path}.${k}` : k));
}

/** The words of the pages that load their own (features/<page>/words.ts), each export by file. */
async function pageWords(): Promise<Array<[string, PageWords<unknown>]>> {
  const features = new URL('../dashboard/src/features/', import.meta.url);
  const found: Array<[string, PageWords<unknown>]> = [];
  for (const dir of readdirSync(features, { withFileTypes: true })) {
    if (!dir.isDirectory() || !readdirSync(new URL(`${dir.name}/`, features)).includes('words.ts')) continue;
    const mod = (await import(new URL(`${dir.name}/words.ts`, features).href)) as Record<string, PageWords<unknown>>;
    for (const [name, words] of Object.entries(mod)) found.push([`${dir.name}/words.ts ${name}`, words]);
  }
  return found;
}

describe("the catalogs' words", () => {
  test('no word of the global catalogs or of a page is a JSON path, a pattern, a regular expression or a catalog code', async () => {
    const catalogs: Array<[string, unknown]> = [
      ['en.ts', en],
      ['hu.ts', hu],
    ];
    for (const [file, words] of await pageWords()) catalogs.push([`${file} en`, words.en], [`${file} hu`, words.hu]);
    for (const [where, words] of catalogs) {
      for (const [path, m] of leaves(words)) {
        for (const code of ERROR_CODES) assertPlain(m, code, `${where} ${path}`);
      }
    }
  });

  test("every page's words are in English and Hungarian, with the same keys, and Hungarian is not English", async () => {
    const pages = await pageWords();
    assert.ok(pages.length >= 7, `${pages.length} pages have words of their own`);
    for (const [file, words] of pages) {
      assert.deepEqual(Object.keys(words).sort(), ['en', 'hu'], `${file}: both languages and no other`);
      assert.deepEqual(shape(words.hu), shape(words.en), `${file}: Hungarian has the keys of English`);
      const said = new Map(leaves(words.en));
      const same = leaves(words.hu).filter(([path, m]) => said.get(path) === m);
      assert.ok(same.length * 10 < said.size, `${file}: ${same.length} of ${said.size} in English: ${same.map(([p]) => p).join(', ')}`);
    }
  });
});

/** Wrong writes of the dashboard's forms, as a careless hand would send them; each answers 400 with issues. */
function wrongWrites(
  s: SalonFixture,
): Array<{ form: string; method: 'POST' | 'PUT' | 'PATCH'; url: string; body: unknown; known: string[] }> {
  const slug = s.business.slug;
  const booking = {
    locationSlug: s.location.slug,
    serviceId: s.service.id,
    staffId: s.staff[0]!.id,
    date: '2031-03-04',
    startTime: '10:00',
  };
  const bookingFields = ['serviceId', 'staffId', 'visit', 'date', 'startTime', 'guest.name', 'guest.phone', 'guest.email'];
  return [
    {
      form: 'New booking: bad phone',
      method: 'POST',
      url: `/businesses/${slug}/bookings`,
      body: { ...booking, guest: { name: 'Ada', phone: 'call me' } },
      known: bookingFields,
    },
    {
      form: 'New booking: no name',
      method: 'POST',
      url: `/businesses/${slug}/bookings`,
      body: { ...booking, guest: { name: '', phone: '+36301234567' } },
      known: bookingFields,
    },
    {
      form: 'New booking: everything wrong',
      method: 'POST',
      url: `/businesses/${slug}/bookings`,
      body: { ...booking, date: '2031-02-31', startTime: '25:99', guest: { name: '', phone: '', email: 'nope' }, extra: 1 },
      known: bookingFields,
    },
    {
      form: 'Location',
      method: 'POST',
      url: `/businesses/${slug}/locations`,
      body: { slug: 'Bad Slug!', name: '', timezone: 'Mars/Base', address: { street: '', city: '', zip: '' }, phone: 'call us' },
      known: ['slug', 'name', 'timezone', 'address', 'phone'],
    },
    {
      form: 'Location: unknown zone',
      method: 'POST',
      url: `/businesses/${slug}/locations`,
      body: {
        slug: 'second',
        name: 'Second',
        publicLocationName: 'Second',
        timezone: 'Mars/Base',
        address: { street: 'Fő utca 1', city: 'Budapest', zip: '1011' },
      },
      known: ['timezone'],
    },
    {
      form: 'Service',
      method: 'POST',
      url: `/businesses/${slug}/services`,
      body: { locationSlug: s.location.slug, name: 'x'.repeat(300), durationMinutes: 0, priceType: 'cheap' },
      known: ['name', 'durationMinutes', 'priceType'],
    },
    {
      form: 'Staff',
      method: 'POST',
      url: `/businesses/${slug}/staff`,
      body: {
        locationSlug: s.location.slug,
        name: 'Overlap',
        serviceIds: [],
        workingHours: [
          { weekday: 1, start: '09:00', end: '13:00' },
          { weekday: 1, start: '12:00', end: '17:00' },
        ],
      },
      known: ['workingHours'],
    },
    {
      form: 'Invitation',
      method: 'POST',
      url: `/businesses/${slug}/invitations`,
      body: { email: 'nope', role: 'boss' },
      known: ['email', 'role'],
    },
    { form: 'Webhook', method: 'PUT', url: `/businesses/${slug}/webhook`, body: { url: 'ftp://x' }, known: ['url'] },
    {
      form: 'Settings',
      method: 'PATCH',
      url: `/businesses/${slug}/guest-settings`,
      body: { holdMinutes: 45, bookingPage: { embedOrigins: ['https://a.example/path'] } },
      known: [],
    },
    {
      form: 'API key',
      method: 'POST',
      url: `/businesses/${slug}/api-keys`,
      body: { name: '', type: 'secret', capabilities: ['everything'] },
      known: ['name', 'capabilities'],
    },
  ];
}

for (const target of dbTargets()) {
  describe(`the forms' validation answers in words [${target.name}]`, () => {
    let h: Harness;
    let salon: SalonFixture;
    before(async () => {
      h = await startHarness(target);
      salon = await createSalon(h.app);
    });
    after(() => h.close());

    test('every issue is in words beside its field or named in the form message, once, in English and Hungarian', async () => {
      let issuesSeen = 0;
      for (const w of wrongWrites(salon)) {
        const r = await admin(h.app, w.method, w.url, w.body);
        assert.ok(r.status >= 400 && r.status < 500, `${w.form}: ${r.status} ${r.raw}`);
        const e = r.body.error as { code: ErrorCode; message: string; details?: { issues?: unknown[] } };
        issuesSeen += e.details?.issues?.length ?? 0;
        const error = new ApiError(r.status, e.code, e.message, e.details);
        // once with the form's own fields, once with none shown (everything in the form-level message)
        for (const known of [w.known, []]) {
          const [said, saidHu] = LANGS.map((t) => formErrors(error, known, {}, t));
          for (const [lang, out] of [
            ['en', said!],
            ['hu', saidHu!],
          ] as const) {
            for (const m of [...Object.values(out.fields), out.form ?? '']) {
              if (m === '') continue;
              assertPlain(m, e.code, `${w.form} ${lang}`);
              assertOnce(m, `${w.form} ${lang}`);
            }
            for (const [field, m] of Object.entries(out.fields)) {
              assert.ok(!(out.form ?? '').includes(m), `${w.form} ${lang}: "${field}" is said beside it and again in the form`);
            }
          }
          assert.deepEqual(Object.keys(saidHu!.fields), Object.keys(said!.fields), `${w.form}: the same fields`);
          for (const field of Object.keys(said!.fields))
            assert.notEqual(saidHu!.fields[field], said!.fields[field], `${w.form} ${field}: Hungarian`);
          if (said!.form !== null) assert.notEqual(saidHu!.form, said!.form, `${w.form}: the form message in Hungarian`);
        }
      }
      // the validator stops at a body's first issue: one each, but the webhook's URL rule
      assert.ok(issuesSeen >= 10, `the writes produced ${issuesSeen} issues`);
    });

    test('New booking: a bad phone and a missing name are said beside their fields, nothing at form level', async () => {
      const [phone, name] = wrongWrites(salon);
      for (const [w, field, en_, hu_] of [
        [phone!, 'guest.phone', en.issues.phone, hu.issues.phone],
        [name!, 'guest.name', en.issues.required, hu.issues.required],
      ] as const) {
        const r = await admin(h.app, w.method, w.url, w.body);
        const error = new ApiError(r.status, r.body.error.code, r.body.error.message, r.body.error.details);
        assert.deepEqual(formErrors(error, w.known, {}, en), { fields: { [field]: en_ }, form: null }, r.raw);
        assert.deepEqual(formErrors(error, w.known, {}, hu), { fields: { [field]: hu_ }, form: null }, r.raw);
      }
    });
  });
}

/**
 * POST /v1/availability/search through HTTP, on every database target: grid, breaks, time off,
 * bookings and buffers, notice and horizon, staff and service errors, range rules, truncation,
 * DST in three zones, group sessions and scope. The pure engine has its own unit and property tests
 * (test/domain/); these check that the route, the store queries and the engine agree end to end.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { verifySlotToken } from '../src/domain/availability/slot-token.ts';
import { dbTargets } from './helpers/databases.ts';
import { adminOk, startHarness, type Harness } from './helpers/harness.ts';
import {
  api,
  createBusiness,
  createKey,
  createLocation,
  createSalon,
  createService,
  createStaff,
  type BusinessFixture,
  type KeyFixture,
  type LocationFixture,
  type ServiceFixture,
  type StaffFixture,
} from './helpers/fixtures.ts';

const MINUTE = 60_000;
const ALL_WEEK = [1, 2, 3, 4, 5, 6, 7];

type Hours = Array<{ weekday: number; start: string; end: string }>;

function hours(start: string, end: string, weekdays: number[] = ALL_WEEK): Hours {
  return weekdays.map((weekday) => ({ weekday, start, end }));
}

interface Ctx {
  business: BusinessFixture;
  location: LocationFixture;
  service: ServiceFixture;
  staff: StaffFixture[];
  key: KeyFixture;
}

/** A fresh business with one location, one service and staff performing it with the given hours. */
async function setup(
  h: Harness,
  opts: { location?: Record<string, unknown>; service?: Record<string, unknown>; staffHours?: Hours[] } = {},
): Promise<Ctx> {
  const business = await createBusiness(h.app);
  const location = await createLocation(h.app, business.slug, opts.location ?? {});
  const service = await createService(h.app, business.slug, location.slug, opts.service ?? {});
  const staff: StaffFixture[] = [];
  for (const [i, workingHours] of (opts.staffHours ?? [hours('09:00', '17:00')]).entries()) {
    staff.push(await createStaff(h.app, business.slug, location.slug, { name: `Staff ${i}`, serviceIds: [service.id], workingHours }));
  }
  const key = await createKey(h.app, business.slug);
  return { business, location, service, staff, key };
}

function search(h: Harness, c: Ctx, from: string, to: string = from, extra: Record<string, unknown> = {}) {
  return api(h.app, c.key.secret, 'POST', '/availability/search', {
    salonSlug: c.business.slug,
    locationSlug: c.location.slug,
    serviceId: c.service.id,
    dateRange: { from, to },
    ...extra,
  });
}

interface Slot {
  date: string;
  startTime: string;
  endTime: string;
  serviceId: string;
  staffId: string;
}

async function slotsOf(h: Harness, c: Ctx, from: string, to: string = from, extra: Record<string, unknown> = {}): Promise<Slot[]> {
  const r = await search(h, c, from, to, extra);
  assert.equal(r.status, 200, r.raw);
  assert.equal(r.body.ok, true);
  return r.body.data.slots as Slot[];
}

function startsOf(slots: Slot[], staffId?: string): string[] {
  return slots.filter((s) => staffId === undefined || s.staffId === staffId).map((s) => s.startTime);
}

/** HH:MM from minute of day. */
function hhmm(minute: number): string {
  return `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
}

/** Grid start times from `first` to `last` inclusive (HH:MM), every `step` minutes. */
function grid(first: string, last: string, step = 15): string[] {
  const toMin = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3));
  const out: string[] = [];
  for (let m = toMin(first); m <= toMin(last); m += step) out.push(hhmm(m));
  return out;
}

function without(list: string[], removed: string[]): string[] {
  return list.filter((t) => !removed.includes(t));
}

const CONSENT = {
  privacyNoticeVersion: 'p-1',
  termsVersion: 't-1',
  locale: 'hu-HU',
  acceptedAt: '2026-05-01T10:00:00.000Z',
  policyConsentGiven: true,
};

/**
 * Independent reference for one DST day: wall clocks from Intl (not the engine's Temporal path),
 * scanned minute by minute. Working hours [open, close) local minutes; each grid minute that exists
 * is offered at its first occurrence if the elapsed-time appointment fits between the first instants
 * at which the clock reads `open` and `close` or later.
 */
function referenceDay(timeZone: string, date: string, open: number, close: number, duration: number, step: number) {
  const fmt = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  const local = (instant: number) => {
    const p = Object.fromEntries(fmt.formatToParts(new Date(instant)).map((x) => [x.type, x.value]));
    return { date: `${p.year}-${p.month}-${p.day}`, minute: Number(p.hour) * 60 + Number(p.minute) };
  };
  const base = Date.parse(`${date}T00:00:00Z`);
  const first = new Map<number, number>();
  let openAt: number | undefined;
  let closeAt: number | undefined;
  for (let t = base - 16 * 60 * MINUTE; t <= base + 40 * 60 * MINUTE; t += MINUTE) {
    const l = local(t);
    const atOrAfter = (m: number) => l.date > date || (l.date === date && l.minute >= m);
    if (openAt === undefined && atOrAfter(open)) openAt = t;
    if (closeAt === undefined && atOrAfter(close)) closeAt = t;
    if (l.date === date && !first.has(l.minute)) first.set(l.minute, t);
  }
  const out: Array<{ startTime: string; endTime: string }> = [];
  for (let m = open; m < close; m += step) {
    const start = first.get(m);
    if (start === undefined) continue;
    const end = start + duration * MINUTE;
    if (start >= openAt! && end <= closeAt!) out.push({ startTime: hhmm(m), endTime: hhmm(local(end).minute) });
  }
  return out;
}

for (const target of dbTargets()) {
  describe(`POST /availability/search [${target.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(target);
    });
    after(() => h.close());

    // Monday 2026-06-01 08:00 in Budapest (CEST, UTC+2); 2026-06-08 is the following Monday.
    const NOW = new Date('2026-06-01T06:00:00.000Z');

    test('slots lie on the grid anchored at the opening, wholly inside working hours', async () => {
      h.clock.now = NOW;
      const c = await setup(h, { staffHours: [hours('09:10', '11:00', [1])] });
      const r = await search(h, c, '2026-06-08', '2026-06-09');
      assert.equal(r.status, 200, r.raw);
      assert.deepEqual(
        r.body.data.slots,
        [
          ['09:10', '09:40'],
          ['09:25', '09:55'],
          ['09:40', '10:10'],
          ['09:55', '10:25'],
          ['10:10', '10:40'],
          ['10:25', '10:55'],
        ].map(([startTime, endTime]) => ({ date: '2026-06-08', startTime, endTime, serviceId: c.service.id, staffId: c.staff[0]!.id })),
      );
      // Standard slots carry no group-session meta.
      assert.equal(r.body.meta.bookingMode, undefined);
      assert.equal(r.body.meta.availabilitySuppressed, undefined);
      assert.equal(r.body.meta.truncated, undefined);
    });

    test('breaks: two working intervals a day, each with its own grid, no slot across the gap', async () => {
      h.clock.now = NOW;
      const c = await setup(h, {
        location: { slotIntervalMinutes: 30 },
        service: { durationMinutes: 60 },
        staffHours: [
          [
            { weekday: 1, start: '09:00', end: '12:00' },
            { weekday: 1, start: '13:10', end: '15:00' },
          ],
        ],
      });
      const slots = await slotsOf(h, c, '2026-06-08');
      assert.deepEqual(
        slots.map((s) => `${s.startTime}-${s.endTime}`),
        ['09:00-10:00', '09:30-10:30', '10:00-11:00', '10:30-11:30', '11:00-12:00', '13:10-14:10', '13:40-14:40'],
      );
    });

    test('time off removes the overlapping slots of that staff member only', async () => {
      h.clock.now = NOW;
      const c = await setup(h, { staffHours: [hours('09:00', '17:00'), hours('09:00', '17:00')] });
      const [a, b] = c.staff as [StaffFixture, StaffFixture];
      const full = grid('09:00', '16:30');
      let slots = await slotsOf(h, c, '2026-06-08');
      assert.deepEqual(startsOf(slots, a.id), full);
      assert.deepEqual(startsOf(slots, b.id), full);

      await adminOk(h.app, 'POST', `/staff/${a.id}/time-off`, {
        from: { date: '2026-06-08', time: '10:00' },
        to: { date: '2026-06-08', time: '12:00' },
      });
      slots = await slotsOf(h, c, '2026-06-08');
      // A 30-minute slot overlaps [10:00, 12:00) when it starts after 09:30 and before 12:00.
      assert.deepEqual(startsOf(slots, a.id), without(full, grid('09:45', '11:45')));
      assert.deepEqual(startsOf(slots, b.id), full);
      // Other days are untouched.
      assert.deepEqual(startsOf(await slotsOf(h, c, '2026-06-09'), a.id), full);
    });

    test('a booking made through POST /bookings and the searched service buffers block that staff member only', async () => {
      h.clock.now = NOW;
      const c = await setup(h, {
        service: { durationMinutes: 30, bufferBeforeMinutes: 15, bufferAfterMinutes: 15 },
        staffHours: [hours('09:00', '17:00'), hours('09:00', '17:00')],
      });
      const [a, b] = c.staff as [StaffFixture, StaffFixture];
      // Buffers may lie outside working hours: 09:00 and 16:30 are offered although their buffers are not.
      const full = grid('09:00', '16:30');
      assert.deepEqual(startsOf(await slotsOf(h, c, '2026-06-08'), a.id), full);

      const created = await api(h.app, c.key.secret, 'POST', '/bookings', {
        salonSlug: c.business.slug,
        locationSlug: c.location.slug,
        serviceId: c.service.id,
        staffId: a.id,
        slot: { date: '2026-06-08', startTime: '12:00' },
        guest: { name: 'Guest One', phone: '+36301234567' },
        consent: CONSENT,
      });
      assert.equal(created.status, 201, created.raw);
      assert.equal(created.body.data.booking.status, 'confirmed');

      const slots = await slotsOf(h, c, '2026-06-08');
      // The booking holds [11:45, 12:45); a new slot s holds [s - 15, s + 45): clash for 11:00 < s < 13:00.
      assert.deepEqual(startsOf(slots, a.id), without(full, grid('11:15', '12:45')));
      assert.deepEqual(startsOf(slots, b.id), full);

      // Cancelled bookings do not occupy.
      const cancelled = await api(h.app, c.key.secret, 'POST', `/bookings/${created.body.data.booking.bookingId}/cancel`, {});
      assert.equal(cancelled.status, 200, cancelled.raw);
      assert.deepEqual(startsOf(await slotsOf(h, c, '2026-06-08'), a.id), full);
    });

    test('an operator manual booking blocks its own buffers for another service of the same staff member', async () => {
      h.clock.now = NOW;
      const c = await setup(h, { staffHours: [hours('09:00', '17:00'), hours('09:00', '17:00')] });
      const [a, b] = c.staff as [StaffFixture, StaffFixture];
      const buffered = await createService(h.app, c.business.slug, c.location.slug, {
        name: 'Treatment',
        durationMinutes: 30,
        bufferAfterMinutes: 30,
      });
      for (const s of c.staff) await adminOk(h.app, 'PATCH', `/staff/${s.id}`, { serviceIds: [c.service.id, buffered.id] });
      await adminOk(h.app, 'POST', `/businesses/${c.business.slug}/bookings`, {
        locationSlug: c.location.slug,
        serviceId: buffered.id,
        staffId: a.id,
        date: '2026-06-08',
        startTime: '12:00',
        guest: { name: 'Walk In', phone: '+36301234567' },
      });
      const full = grid('09:00', '16:30');
      const slots = await slotsOf(h, c, '2026-06-08');
      // Held [12:00, 13:00) including its 30-minute after-buffer; the unbuffered 30-minute search
      // clashes for 11:30 < s < 13:00.
      assert.deepEqual(startsOf(slots, a.id), without(full, grid('11:45', '12:45')));
      assert.deepEqual(startsOf(slots, b.id), full);
    });

    test('minimum notice and horizon (location PATCH) bound the start instant, both ends inclusive', async () => {
      // Monday 2026-06-08 09:00 Budapest.
      h.clock.now = new Date('2026-06-08T07:00:00.000Z');
      const c = await setup(h);
      await adminOk(h.app, 'PATCH', `/businesses/${c.business.slug}/locations/${c.location.slug}`, {
        minNoticeMinutes: 120,
        horizonDays: 2,
      });
      const slots = await slotsOf(h, c, '2026-06-08', '2026-06-11');
      const byDate = (d: string) => slots.filter((s) => s.date === d).map((s) => s.startTime);
      // start >= now + 120 min = 11:00 local.
      assert.deepEqual(byDate('2026-06-08'), grid('11:00', '16:30'));
      assert.deepEqual(byDate('2026-06-09'), grid('09:00', '16:30'));
      // start <= now + 2 days = 2026-06-10 09:00 local.
      assert.deepEqual(byDate('2026-06-10'), ['09:00']);
      assert.deepEqual(byDate('2026-06-11'), []);
    });

    test('staffId restricts; a staff member elsewhere, not performing the service or unknown is catalog.staff_not_found', async () => {
      h.clock.now = NOW;
      const s = await createSalon(h.app);
      const c: Ctx = { business: s.business, location: s.location, service: s.service, staff: s.staff, key: s.key };
      const all = await slotsOf(h, c, '2026-06-08');
      const [anna, bence] = s.staff as [StaffFixture, StaffFixture];
      const only = await slotsOf(h, c, '2026-06-08', '2026-06-08', { staffId: bence.id });
      assert.ok(only.length > 0);
      assert.ok(only.every((x) => x.staffId === bence.id));
      assert.deepEqual(
        only,
        all.filter((x) => x.staffId === bence.id),
      );
      assert.ok(all.some((x) => x.staffId === anna.id));

      const idle = await createStaff(h.app, s.business.slug, s.location.slug, { name: 'Idle', serviceIds: [] });
      const otherLocation = await createLocation(h.app, s.business.slug);
      const otherService = await createService(h.app, s.business.slug, otherLocation.slug);
      const elsewhere = await createStaff(h.app, s.business.slug, otherLocation.slug, {
        name: 'Elsewhere',
        serviceIds: [otherService.id],
      });
      for (const staffId of [idle.id, elsewhere.id, 'stf_does_not_exist']) {
        const r = await search(h, c, '2026-06-08', '2026-06-08', { staffId });
        assert.equal(r.status, 404, r.raw);
        assert.equal(r.body.error.code, 'catalog.staff_not_found');
      }
    });

    test('an unknown service, or one of another location, is catalog.service_not_found', async () => {
      h.clock.now = NOW;
      const s = await createSalon(h.app);
      const c: Ctx = { business: s.business, location: s.location, service: s.service, staff: s.staff, key: s.key };
      const otherLocation = await createLocation(h.app, s.business.slug);
      const otherService = await createService(h.app, s.business.slug, otherLocation.slug);
      for (const serviceId of ['svc_does_not_exist', otherService.id]) {
        const r = await search(h, c, '2026-06-08', '2026-06-08', { serviceId });
        assert.equal(r.status, 404, r.raw);
        assert.equal(r.body.ok, false);
        assert.equal(r.body.error.code, 'catalog.service_not_found');
      }
    });

    test('a service that is not online-bookable gives 200, empty slots and meta.availabilitySuppressed', async () => {
      h.clock.now = NOW;
      const c = await setup(h, { service: { onlineBookable: false } });
      const r = await search(h, c, '2026-06-08');
      assert.equal(r.status, 200, r.raw);
      assert.deepEqual(r.body.data.slots, []);
      assert.equal(r.body.meta.availabilitySuppressed, true);
      assert.equal(r.body.data.snapshotAt, NOW.toISOString());
    });

    test('date range: 31 days after from is allowed, 32 is availability.date_range_too_wide', async () => {
      h.clock.now = NOW;
      const c = await setup(h, { staffHours: [hours('09:00', '10:00')] });
      const ok = await search(h, c, '2026-06-01', '2026-07-02');
      assert.equal(ok.status, 200, ok.raw);
      const dates = new Set((ok.body.data.slots as Slot[]).map((s) => s.date));
      assert.ok(dates.has('2026-07-02'), 'dateRange.to is inclusive');
      assert.equal(dates.size, 32);

      const wide = await search(h, c, '2026-06-01', '2026-07-03');
      assert.equal(wide.status, 400, wide.raw);
      assert.equal(wide.body.error.code, 'availability.date_range_too_wide');
      assert.equal(wide.body.error.retryable, false);

      // Counted in calendar days, across a leap day too: 2028-02-01 + 31 days = 2028-03-03.
      assert.equal((await search(h, c, '2028-02-01', '2028-03-03')).status, 200);
      const leap = await search(h, c, '2028-02-01', '2028-03-04');
      assert.equal(leap.status, 400, leap.raw);
      assert.equal(leap.body.error.code, 'availability.date_range_too_wide');
    });

    test('to before from, an impossible date and a malformed date are request.validation_failed', async () => {
      h.clock.now = NOW;
      const c = await setup(h);
      const cases: Array<[string, string]> = [
        ['2026-06-10', '2026-06-09'],
        ['2026-02-30', '2026-03-01'],
        ['2026-02-01', '2026-02-30'],
        ['2026-02-29', '2026-03-01'], // 2026 is not a leap year
        ['2026-13-01', '2026-13-02'],
        ['2026-6-1', '2026-06-02'],
      ];
      for (const [from, to] of cases) {
        const r = await search(h, c, from, to);
        assert.equal(r.status, 400, `${from}..${to}: ${r.raw}`);
        assert.equal(r.body.error.code, 'request.validation_failed', `${from}..${to}`);
      }
      // A leap day that exists is fine.
      const leap = await search(h, c, '2028-02-29', '2028-02-29');
      assert.equal(leap.status, 200, leap.raw);
    });

    test('more than 500 slots: the first 500 in (date, time, staff) order, with truncation meta', async () => {
      h.clock.now = NOW;
      const s = await createSalon(h.app);
      const c: Ctx = { business: s.business, location: s.location, service: s.service, staff: s.staff, key: s.key };
      // 2 staff x 31 starts a day (09:00-16:30) x 13 days = 806 slots.
      const r = await search(h, c, '2026-06-08', '2026-06-20');
      assert.equal(r.status, 200, r.raw);
      const slots = r.body.data.slots as Slot[];
      assert.equal(slots.length, 500);
      assert.equal(r.body.meta.truncated, true);
      assert.equal(r.body.meta.returnedSlots, 500);
      assert.equal(r.body.meta.slotLimit, 500);

      const full: Slot[] = [];
      for (let d = 8; d <= 20; d++) {
        const day = await search(h, c, `2026-06-${String(d).padStart(2, '0')}`);
        assert.equal(day.body.meta.truncated, undefined);
        assert.equal(day.body.meta.returnedSlots, undefined);
        full.push(...(day.body.data.slots as Slot[]));
      }
      assert.equal(full.length, 806);
      const key = (x: Slot) => `${x.date} ${x.startTime} ${x.staffId}`;
      const sorted = [...full].sort((x, y) => (key(x) < key(y) ? -1 : key(x) > key(y) ? 1 : 0));
      assert.deepEqual(full, sorted, 'day-by-day results are in (date, time, staff) order');
      assert.deepEqual(slots, full.slice(0, 500));
    });

    test('data.snapshotAt is the UTC ISO instant of the search', async () => {
      const now = new Date('2026-06-01T06:07:08.009Z');
      h.clock.now = now;
      const c = await setup(h);
      const r = await search(h, c, '2026-06-08');
      assert.equal(r.status, 200, r.raw);
      assert.equal(r.body.data.snapshotAt, '2026-06-01T06:07:08.009Z');
      assert.match(r.body.data.snapshotAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    });

    describe('DST: a shift 00:00-06:00 spanning the change', () => {
      const cases = [
        {
          zone: 'Europe/Budapest',
          spring: '2026-03-29',
          autumn: '2026-10-25',
          skipped: grid('02:00', '02:45'),
          repeated: grid('02:00', '02:45'),
        },
        {
          zone: 'America/New_York',
          spring: '2026-03-08',
          autumn: '2026-11-01',
          skipped: grid('02:00', '02:45'),
          repeated: grid('01:00', '01:45'),
        },
        // Lord Howe moves by 30 minutes: 02:00 -> 02:30 in October, 02:00 -> 01:30 in April.
        {
          zone: 'Australia/Lord_Howe',
          spring: '2026-10-04',
          autumn: '2026-04-05',
          skipped: ['02:00', '02:15'],
          repeated: ['01:30', '01:45'],
        },
      ];
      test('Europe/Budapest 2026-03-29: hours opening inside the gap (02:30) open at the jump (03:00)', async () => {
        h.clock.now = new Date('2026-03-01T12:00:00.000Z');
        const c = await setup(h, { location: { timezone: 'Europe/Budapest' }, staffHours: [hours('02:30', '04:00')] });
        const slots = await slotsOf(h, c, '2026-03-29');
        assert.deepEqual(startsOf(slots), grid('03:00', '03:30'));
        // The day after has no gap: the grid starts at 02:30 again.
        assert.deepEqual(startsOf(await slotsOf(h, c, '2026-03-30')), grid('02:30', '03:30'));
      });

      test('Europe/Budapest 2026-03-29: a time-off edge inside the gap is the jump, as an hours edge is', async () => {
        h.clock.now = new Date('2026-03-01T12:00:00.000Z');
        const timeOff = async (from: string, to: string) => {
          const c = await setup(h, { location: { timezone: 'Europe/Budapest' }, staffHours: [hours('00:00', '06:00')] });
          const { timeOff: t } = await adminOk(h.app, 'POST', `/staff/${c.staff[0]!.id}/time-off`, {
            from: { date: '2026-03-29', time: from },
            to: { date: '2026-03-29', time: to },
          });
          return { t, starts: startsOf(await slotsOf(h, c, '2026-03-29')) };
        };
        // "until 02:30" covers everything before the jump (the clock never reads 02:00-02:59)
        const until = await timeOff('00:00', '02:30');
        assert.deepEqual([until.t.to.time, until.t.endAtUtc], ['03:00', '2026-03-29T01:00:00.000Z']);
        assert.deepEqual(until.starts, grid('03:00', '05:30'));
        // "from 02:30" starts at the jump: the 01:30 slot ends exactly there and is still offered
        const from = await timeOff('02:30', '06:00');
        assert.deepEqual([from.t.from.time, from.t.startAtUtc], ['03:00', '2026-03-29T01:00:00.000Z']);
        assert.deepEqual(from.starts, grid('00:00', '01:30'));
      });

      for (const k of cases) {
        test(`${k.zone} spring ${k.spring}: no skipped local time is offered`, async () => {
          h.clock.now = new Date(Date.parse(`${k.spring}T12:00:00Z`) - 20 * 86_400_000);
          const c = await setup(h, { location: { timezone: k.zone }, staffHours: [hours('00:00', '06:00')] });
          const slots = await slotsOf(h, c, k.spring);
          const starts = startsOf(slots);
          for (const t of k.skipped) assert.ok(!starts.includes(t), `${t} does not exist on ${k.spring} in ${k.zone}`);
          if (k.zone !== 'Australia/Lord_Howe') assert.ok(!starts.some((t) => t.startsWith('02:')));
          assert.equal(new Set(starts).size, starts.length);
          assert.ok(slots.every((s) => s.date === k.spring));
          // 30 minutes of real time: the slot before the gap ends after it.
          assert.deepEqual(
            slots.map(({ startTime, endTime }) => ({ startTime, endTime })),
            referenceDay(k.zone, k.spring, 0, 360, 30, 15),
          );
          assert.equal(slots.length, k.zone === 'Australia/Lord_Howe' ? 21 : 19);
        });

        test(`${k.zone} autumn ${k.autumn}: the repeated hour is offered once`, async () => {
          h.clock.now = new Date(Date.parse(`${k.autumn}T12:00:00Z`) - 20 * 86_400_000);
          const c = await setup(h, { location: { timezone: k.zone }, staffHours: [hours('00:00', '06:00')] });
          const slots = await slotsOf(h, c, k.autumn);
          const starts = startsOf(slots);
          for (const t of k.repeated) assert.equal(starts.filter((x) => x === t).length, 1, `${t} once on ${k.autumn}`);
          assert.deepEqual(starts, grid('00:00', '05:30'));
          // The first occurrence: its end (elapsed time) is read on the clock after the fall-back.
          assert.deepEqual(
            slots.map(({ startTime, endTime }) => ({ startTime, endTime })),
            referenceDay(k.zone, k.autumn, 0, 360, 30, 15),
          );
        });
      }
    });

    test('group sessions: GroupSessionSlots with UTC times and seats, full sessions omitted, notice/horizon and local date honoured', async () => {
      h.clock.now = NOW; // 2026-06-01T06:00Z; default notice 60 min, horizon 90 days
      // Two coaches: one coach's sessions may not overlap (a session holds its staff member's time).
      const c = await setup(h, {
        service: { name: 'Yoga', bookingMode: 'groupSession', durationMinutes: 60 },
        staffHours: [hours('09:00', '17:00'), hours('09:00', '17:00')],
      });
      const [coach, second] = c.staff as [StaffFixture, StaffFixture];
      const session = (startAtUtc: string, capacityMax: number, priceMinor?: number, by: StaffFixture = coach) =>
        adminOk(h.app, 'POST', `/services/${c.service.id}/sessions`, {
          staffId: by.id,
          startAtUtc,
          endAtUtc: new Date(Date.parse(startAtUtc) + 60 * MINUTE).toISOString(),
          capacityMax,
          ...(priceMinor === undefined ? {} : { priceMinor }),
        }).then((d) => d.session as { id: string });

      const open = await session('2026-06-03T08:00:00.000Z', 5, 250000);
      const full = await session('2026-06-03T10:00:00.000Z', 1);
      const lateEvening = await session('2026-06-03T21:30:00.000Z', 3); // 23:30 local, still 06-03
      const nextLocalDay = await session('2026-06-03T22:30:00.000Z', 3); // 00:30 local on 06-04
      await session('2026-06-01T06:30:00.000Z', 3, undefined, second); // inside the 60-minute notice
      const atNotice = await session('2026-06-01T07:00:00.000Z', 3); // exactly now + notice: offered

      // Fill the one-seat session (directly: the booking flow has its own test below).
      const before = await search(h, c, '2026-06-01', '2026-06-03');
      assert.equal(before.status, 200, before.raw);
      assert.ok(
        (before.body.data.slots as any[]).some((s) => s.sessionId === full.id),
        'offered while a seat is left',
      );
      await h.db.query('UPDATE group_sessions SET seats_taken = capacity_max WHERE id = $1', [full.id]);

      const r = await search(h, c, '2026-06-01', '2026-06-03');
      assert.equal(r.status, 200, r.raw);
      assert.equal(r.body.meta.bookingMode, 'groupSession');
      const slots = r.body.data.slots as any[];
      assert.deepEqual(
        slots.map((s) => s.sessionId),
        [atNotice.id, open.id, lateEvening.id],
        'ordered by start; full, too-soon and next-local-day sessions omitted',
      );
      const first = slots.find((s) => s.sessionId === open.id);
      assert.deepEqual(Object.keys(first).sort(), [
        'capacityMax',
        'endAtUtc',
        'kind',
        'priceMinor',
        'remainingSeats',
        'sessionId',
        'slotToken',
        'staffId',
        'staffName',
        'startAtUtc',
      ]);
      assert.equal(first.kind, 'group');
      assert.equal(first.startAtUtc, '2026-06-03T08:00:00.000Z');
      assert.equal(first.endAtUtc, '2026-06-03T09:00:00.000Z');
      assert.equal(first.capacityMax, 5);
      assert.equal(first.remainingSeats, 5);
      assert.equal(first.priceMinor, 250000);
      assert.equal(first.staffId, coach.id);
      assert.equal(first.staffName, coach.name);
      assert.equal(slots.find((s) => s.sessionId === lateEvening.id).priceMinor, null);

      // The local date filter includes the 00:30 session on 06-04 only when 06-04 is searched.
      const next = await search(h, c, '2026-06-04', '2026-06-04');
      assert.deepEqual(
        (next.body.data.slots as any[]).map((s) => s.sessionId),
        [nextLocalDay.id],
      );

      // The token is genuine for this session for 10 minutes, and not after.
      const secret = h.app.ctx.serverSecret;
      const at = (ms: number) => new Date(NOW.getTime() + ms);
      assert.equal(verifySlotToken(secret, first.slotToken, open.id, at(0)), true);
      assert.equal(verifySlotToken(secret, first.slotToken, open.id, at(10 * 60_000 - 1)), true);
      assert.equal(verifySlotToken(secret, first.slotToken, open.id, at(10 * 60_000)), false);
      assert.equal(verifySlotToken(secret, first.slotToken, lateEvening.id, at(0)), false);
      assert.equal(verifySlotToken(Buffer.alloc(32, 7), first.slotToken, open.id, at(0)), false);
    });

    test('group sessions: the slotToken of a search books a seat through POST /bookings; seats left drop, a full session disappears', async () => {
      h.clock.now = NOW;
      const c = await setup(h, { service: { name: 'Spinning', bookingMode: 'groupSession', durationMinutes: 45 } });
      const [coach] = c.staff as [StaffFixture];
      const { session } = await adminOk(h.app, 'POST', `/services/${c.service.id}/sessions`, {
        staffId: coach.id,
        startAtUtc: '2026-06-04T16:00:00.000Z',
        endAtUtc: '2026-06-04T16:45:00.000Z',
        capacityMax: 2,
      });
      const book = async () => {
        const found = await search(h, c, '2026-06-04');
        const slot = (found.body.data.slots as any[])[0];
        assert.equal(slot.sessionId, session.id);
        const r = await api(h.app, c.key.secret, 'POST', '/bookings', {
          salonSlug: c.business.slug,
          locationSlug: c.location.slug,
          serviceId: c.service.id,
          sessionId: slot.sessionId,
          slotToken: slot.slotToken,
          guest: { name: 'Seat Taker', phone: '+36301234567' },
          consent: CONSENT,
        });
        assert.equal(r.status, 201, r.raw);
        return slot.remainingSeats as number;
      };
      assert.equal(await book(), 2);
      assert.equal(await book(), 1);
      const after = await search(h, c, '2026-06-04');
      assert.deepEqual(after.body.data.slots, []);
    });

    test('group sessions beyond the horizon are omitted', async () => {
      h.clock.now = NOW;
      const c = await setup(h, {
        location: { horizonDays: 2 },
        service: { name: 'Pilates', bookingMode: 'groupSession', durationMinutes: 60 },
        staffHours: [hours('09:00', '17:00'), hours('09:00', '17:00')],
      });
      const [coach, second] = c.staff as [StaffFixture, StaffFixture];
      const mk = (startAtUtc: string, by: StaffFixture = coach) =>
        adminOk(h.app, 'POST', `/services/${c.service.id}/sessions`, {
          staffId: by.id,
          startAtUtc,
          endAtUtc: new Date(Date.parse(startAtUtc) + 60 * MINUTE).toISOString(),
          capacityMax: 4,
        }).then((d) => d.session as { id: string });
      const edge = await mk('2026-06-03T06:00:00.000Z'); // exactly now + 2 days
      await mk('2026-06-03T06:15:00.000Z', second);
      const r = await search(h, c, '2026-06-01', '2026-06-05');
      assert.equal(r.status, 200, r.raw);
      assert.deepEqual(
        (r.body.data.slots as any[]).map((s) => s.sessionId),
        [edge.id],
      );
    });

    test('scope: another salon or an unknown location is auth.scope_mismatch (403)', async () => {
      h.clock.now = NOW;
      const s = await createSalon(h.app);
      const c: Ctx = { business: s.business, location: s.location, service: s.service, staff: s.staff, key: s.key };
      const other = await createSalon(h.app);
      const cases = [
        { salonSlug: other.business.slug, locationSlug: other.location.slug },
        { salonSlug: other.business.slug, locationSlug: s.location.slug },
        { salonSlug: s.business.slug, locationSlug: 'no-such-location' },
        { salonSlug: s.business.slug, locationSlug: other.location.slug },
      ];
      for (const scope of cases) {
        const r = await search(h, c, '2026-06-08', '2026-06-08', scope);
        assert.equal(r.status, 403, `${JSON.stringify(scope)}: ${r.raw}`);
        assert.equal(r.body.error.code, 'auth.scope_mismatch');
      }
      // Order of checks: a malformed field (an impossible date) is a 400 before scope; the range
      // rules are business rules, after scope.
      const foreign = { salonSlug: other.business.slug, locationSlug: other.location.slug };
      const badDate = await search(h, c, '2026-02-30', '2026-03-01', foreign);
      assert.equal(badDate.status, 400, badDate.raw);
      assert.equal(badDate.body.error.code, 'request.validation_failed');
      const wide = await search(h, c, '2026-06-01', '2026-08-01', foreign);
      assert.equal(wide.status, 403, wide.raw);
      assert.equal(wide.body.error.code, 'auth.scope_mismatch');
    });
  });
}

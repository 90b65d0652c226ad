/** The pure part of calendar feeds: which events a feed shows, their text, and the ETag match. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { BookingRecord } from '../../src/domain/bookings/record.ts';
import type { BookingStatus } from '../../src/domain/bookings/states.ts';
import { withoutContacts } from '../../src/domain/calendar-feeds/contact-text.ts';
import { feedEvents } from '../../src/domain/calendar-feeds/events.ts';
import { feedEtag, matchesEtag, renderFeed } from '../../src/domain/calendar-feeds/ics.ts';
import { feedWindow } from '../../src/domain/calendar-feeds/window.ts';
import { feedUrl, tokenOfFeedFile } from '../../src/domain/calendar-feeds/token.ts';

const NOW = new Date('2031-06-01T12:00:00Z');
const WINDOW = feedWindow(NOW, 90);

function booking(id: string, status: BookingStatus, startAt: string, extra: Partial<BookingRecord> = {}): BookingRecord {
  const start = new Date(startAt);
  return {
    id,
    businessId: 'biz_1',
    locationId: 'loc_1',
    serviceId: 'svc_1',
    staffId: 'stf_a',
    sessionId: null,
    publicReference: `R-${id}`,
    status,
    stateVersion: 1,
    acceptanceMode: 'automatic',
    serviceName: 'Haircut',
    staffName: 'Anna',
    locationSnapshot: {
      id: 'loc_1',
      locationSlug: 'downtown',
      publicLocationName: 'Downtown',
      address: { city: 'Budapest', street: 'Váci utca 1.', zip: '1052' },
      timezone: 'Europe/Budapest',
    },
    timezone: 'Europe/Budapest',
    requestedDate: null,
    requestedStartTime: null,
    startAt: start,
    endAt: new Date(start.getTime() + 30 * 60_000),
    slot: { date: startAt.slice(0, 10), startTime: '10:00', endTime: '10:30' },
    proposed: null,
    guestName: 'Kiss Éva',
    note: 'call me on +36 30 765 4321',
    serviceLocation: null,
    createdAt: NOW,
    updatedAt: NOW,
    ...extra,
  };
}

describe('calendar feed events', () => {
  test('the window runs from 30 days back to the day after the horizon', () => {
    assert.equal(WINDOW.from.toISOString(), '2031-05-02T12:00:00.000Z');
    assert.equal(WINDOW.to.toISOString(), '2031-08-31T12:00:00.000Z');
  });

  test('statuses that held or took time are shown; cancelled and declined never; outside the window never', () => {
    const all = (['requested', 'confirmed', 'rescheduleProposed', 'completed', 'noShow', 'cancelled', 'declined'] as const).map((s, i) =>
      booking(`b${i}`, s, `2031-06-0${i + 2}T08:00:00Z`),
    );
    const old = booking('old', 'completed', '2031-04-01T08:00:00Z');
    const far = booking('far', 'confirmed', '2031-09-15T08:00:00Z');
    const ev = feedEvents({ scope: { kind: 'staff', staffId: 'stf_a' }, window: WINDOW, bookings: [...all, old, far], timeOff: [] });
    assert.deepEqual(
      ev.map((e) => [e.uid, e.status]),
      [
        ['b0', 'TENTATIVE'],
        ['b1', 'CONFIRMED'],
        ['b2', 'TENTATIVE'],
        ['b3', 'CONFIRMED'],
        ['b4', 'CONFIRMED'],
      ],
    );
  });

  test('a proposal shows at the proposed time, on the feed of the staff member it holds', () => {
    const b = booking('p', 'rescheduleProposed', '2031-06-03T08:00:00Z', {
      proposed: {
        staffId: 'stf_b',
        startAt: new Date('2031-06-04T09:00:00Z'),
        endAt: new Date('2031-06-04T09:30:00Z'),
        slot: { date: '2031-06-04', startTime: '11:00', endTime: '11:30' },
      },
    });
    const input = { window: WINDOW, bookings: [b], timeOff: [] };
    assert.deepEqual(feedEvents({ ...input, scope: { kind: 'staff', staffId: 'stf_a' } }), []);
    const [e] = feedEvents({ ...input, scope: { kind: 'staff', staffId: 'stf_b' } });
    assert.equal(e!.start.toISOString(), '2031-06-04T09:00:00.000Z');
    assert.equal(e!.status, 'TENTATIVE');
    assert.doesNotMatch(e!.description, /Staff: Anna/, 'Anna is not the one the proposal holds');
    assert.equal(feedEvents({ ...input, scope: { kind: 'location', locationId: 'loc_1' } }).length, 1);
    assert.equal(feedEvents({ ...input, scope: { kind: 'location', locationId: 'loc_2' } }).length, 0);
  });

  test('the text: guest and service, status in words, never the note or anything like a contact', () => {
    const b = booking('t', 'confirmed', '2031-06-02T08:00:00Z', { guestName: 'Kiss Éva eva.kiss@example.com +36 30 765 4321' });
    const [e] = feedEvents({ scope: { kind: 'location', locationId: 'loc_1' }, window: WINDOW, bookings: [b], timeOff: [] });
    assert.equal(e!.summary, 'Kiss Éva … … – Haircut');
    assert.equal(e!.description, 'Status: confirmed\nStaff: Anna\nReference: R-t');
    const body = renderFeed({ name: 'Downtown – Salon', timezone: 'Europe/Budapest', uidDomain: 'booking.example.com' }, [e!]);
    assert.ok(!body.includes('765') && !body.includes('@example.com') && !body.includes('call me'), body);
    assert.match(body, /^UID:t@booking\.example\.com\r$/m);
  });

  test('withoutContacts keeps names, dates and short numbers', () => {
    assert.equal(withoutContacts('Nagy Anna'), 'Nagy Anna');
    assert.equal(withoutContacts('Anna 2.'), 'Anna 2.');
    assert.equal(withoutContacts('Anna (06-30/123-4567)'), 'Anna (…)');
    assert.equal(withoutContacts('a@b.hu'), '…');
  });

  test('time off is busy, named with its staff member in a location feed', () => {
    const t = {
      id: 'off_1',
      staffId: 'stf_a',
      staffName: 'Anna',
      startAt: new Date('2031-06-05T08:00:00Z'),
      endAt: new Date('2031-06-05T16:00:00Z'),
      createdAt: NOW,
    };
    assert.equal(
      feedEvents({ scope: { kind: 'staff', staffId: 'stf_a' }, window: WINDOW, bookings: [], timeOff: [t] })[0]!.summary,
      'Time off',
    );
    assert.equal(
      feedEvents({ scope: { kind: 'location', locationId: 'loc_1' }, window: WINDOW, bookings: [], timeOff: [t] })[0]!.summary,
      'Time off – Anna',
    );
  });

  test('the same events render the same bytes; If-None-Match forms', () => {
    const events = feedEvents({
      scope: { kind: 'staff', staffId: 'stf_a' },
      window: WINDOW,
      bookings: [booking('x', 'confirmed', '2031-06-02T08:00:00Z')],
      timeOff: [],
    });
    const cal = { name: 'Anna – Salon', timezone: 'Europe/Budapest', uidDomain: 'h.example' };
    const etag = feedEtag(renderFeed(cal, events));
    assert.equal(feedEtag(renderFeed(cal, events)), etag);
    assert.ok(matchesEtag(etag, etag) && matchesEtag(`W/${etag}`, etag) && matchesEtag(`"a", ${etag}`, etag) && matchesEtag('*', etag));
    assert.ok(!matchesEtag(undefined, etag) && !matchesEtag('"a"', etag));
  });

  test('feed addresses: {base}/ical/{token}.ics, anything else is no token', () => {
    const token = 'A'.repeat(43);
    assert.equal(feedUrl('https://b.example', token), `https://b.example/ical/${token}.ics`);
    assert.equal(tokenOfFeedFile(`${token}.ics`), token);
    for (const f of [token, `${token}.ICS`, `${'A'.repeat(42)}.ics`, `${token}x.ics`, '.ics'])
      assert.equal(tokenOfFeedFile(f), undefined, f);
  });
});

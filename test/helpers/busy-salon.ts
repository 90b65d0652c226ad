/**
 * A salon with something on every dashboard page, for the layout tests: they must measure pages
 * as a salon fills them (long names, many columns, several rows), not empty lists.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { newId } from '../../src/domain/ids.ts';
import { insertEntry } from '../../src/store/waitlist.ts';
import { CONSENT, createBody } from './bookings.ts';
import type { LiveServer } from './browser.ts';
import { api, createKey, createSalon, createService, createStaff, type SalonFixture } from './fixtures.ts';
import { adminOk } from './harness.ts';
import { insertMember } from './members.ts';

export interface BusySalon {
  salon: SalonFixture;
  owner: { email: string; password: string };
  /** the location-local day the calendar's bookings are on */
  date: string;
  /** guest names on that day's calendar */
  guests: string[];
  /** one of those bookings, for its detail page */
  bookingId: string;
}

const GUESTS = ['Kovács Eszter', 'Szabó-Nagy Annamária', 'Tóth Bence', 'Horváth Lili', 'Varga Zsófia', 'Molnár Péter', 'Farkas Réka'];

export async function createBusySalon(server: LiveServer, date: string): Promise<BusySalon> {
  const { app, db } = server;
  const salon = await createSalon(app);
  const slug = salon.business.slug;
  const loc = salon.location.slug;
  const owner = await insertMember(db, salon.business.id, 'owner');
  await insertMember(db, salon.business.id, 'manager');
  await insertMember(db, salon.business.id, 'frontDesk');

  const fringe = await createService(app, slug, loc, { name: 'Fringe trim', durationMinutes: 15 });
  const balayage = await createService(app, slug, loc, {
    name: 'Balayage with toner and blow-dry',
    durationMinutes: 120,
    priceType: 'from',
    price: { amount: 38000, currency: 'HUF' },
  });
  const serviceIds = [salon.service.id, salon.manualService.id, fringe.id, balayage.id];
  for (const s of salon.staff) await adminOk(app, 'PATCH', `/staff/${s.id}`, { serviceIds });
  const more = [
    await createStaff(app, slug, loc, { name: 'Csilla Kerekes-Vámos', serviceIds }),
    await createStaff(app, slug, loc, { name: 'Dávid', serviceIds }),
  ];
  const staff = [...salon.staff, ...more];
  for (const name of ['Wash basin', 'Styling chair', 'Colour processor']) {
    await adminOk(app, 'POST', `/businesses/${slug}/resources`, { locationSlug: loc, name, quantity: 2 });
  }

  // A day of every length of block: 15, 30, 60 and 120 minutes, in every column.
  const day: Array<[number, string, string]> = [
    [0, '09:00', salon.service.id],
    [0, '09:30', fringe.id],
    [0, '10:00', balayage.id],
    [1, '09:00', salon.manualService.id],
    [1, '10:30', salon.service.id],
    [2, '09:15', fringe.id],
    [2, '11:00', balayage.id],
    [3, '09:00', salon.service.id],
  ];
  const guests: string[] = [];
  const ids: string[] = [];
  for (const [i, [col, startTime, serviceId]] of day.entries()) {
    const guest = GUESTS[i % GUESTS.length]!;
    guests.push(guest);
    const made = await adminOk(app, 'POST', `/businesses/${slug}/bookings`, {
      locationSlug: loc,
      serviceId,
      staffId: staff[col]!.id,
      date,
      startTime,
      guest: { name: guest, phone: '+36 30 111 2222', email: 'guest@example.com' },
    });
    assert.ok(made.booking?.bookingId, 'the booking view has its id');
    ids.push(made.booking.bookingId);
  }

  await adminOk(app, 'POST', `/staff/${staff[0]!.id}/time-off`, { from: { date, time: '16:00' }, to: { date, time: '17:00' } });

  // The webhook before the guests' requests, so that the delivery log has records.
  await adminOk(app, 'PUT', `/businesses/${slug}/webhook`, { url: 'https://hooks.example.com/salon/bookings' });
  for (const [i, startTime] of ['14:00', '15:30'].entries()) {
    const body = createBody(salon, {
      service: salon.manualService,
      date,
      startTime,
      staffId: staff[i]!.id,
      guest: { name: GUESTS[i + 3]!, phone: '+36301112244', email: 'request@example.com' },
      consent: { ...CONSENT, acceptedAt: new Date().toISOString() },
    });
    const r = await api(app, salon.key.secret, 'POST', '/bookings', body);
    assert.equal(r.status, 201, r.raw);
  }

  await createKey(app, slug, {
    kind: 'guest_partner',
    capabilities: ['services.read', 'staff.read', 'availability.read', 'booking.create'],
  });
  for (const [i, name] of ['Lakatos Brigitta', 'Oláh Krisztina'].entries()) {
    await insertEntry(db, {
      id: newId('wl'),
      businessId: salon.business.id,
      locationId: salon.location.id,
      serviceId: salon.service.id,
      staffId: i === 0 ? null : staff[0]!.id,
      name,
      phone: '+36 30 222 3333',
      email: `waiting${i}@example.com`,
      lang: 'hu',
      fromDate: date,
      toDate: date,
      earliestTime: '10:00',
      latestTime: '16:00',
      withdrawNonce: randomUUID(),
      withdrawTokenHash: randomUUID(),
    });
  }
  return { salon, owner, date, guests, bookingId: ids[2]! };
}

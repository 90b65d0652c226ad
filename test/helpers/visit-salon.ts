/**
 * A salon for the guest pages' visit tests (salon-scheduling.md "Visits"): three automatic
 * services, Anna who performs all three and Bence who does not wash, every day 09:00 to 17:00.
 */
import { createBusiness, createKey, createLocation, createService, createStaff, type SalonFixture } from './fixtures.ts';
import type { App } from '../../src/http/context.ts';

export interface VisitSalon extends SalonFixture {
  cut: SalonFixture['service'];
  colour: SalonFixture['service'];
  wash: SalonFixture['service'];
}

export async function createVisitSalon(app: App): Promise<VisitSalon> {
  const business = await createBusiness(app);
  const location = await createLocation(app, business.slug, { timezone: 'Europe/Budapest' });
  const cut = await createService(app, business.slug, location.slug, { name: 'Cut' });
  const colour = await createService(app, business.slug, location.slug, {
    name: 'Colour',
    durationMinutes: 60,
    price: { amount: 12000, currency: 'HUF' },
  });
  const wash = await createService(app, business.slug, location.slug, {
    name: 'Wash',
    durationMinutes: 15,
    price: { amount: 2000, currency: 'HUF' },
  });
  const staff = [
    await createStaff(app, business.slug, location.slug, { name: 'Anna', serviceIds: [cut.id, colour.id, wash.id] }),
    await createStaff(app, business.slug, location.slug, { name: 'Bence', serviceIds: [cut.id, colour.id] }),
  ];
  const key = await createKey(app, business.slug);
  return { business, location, service: cut, manualService: colour, staff, key, cut, colour, wash };
}

import { linkToken, linkTokenHash, newLinkNonce } from '../../domain/guest-links.ts';
import { normalizeEmail, normalizePhone } from '../../domain/bookings/guest.ts';
import type { LocationRecord, ServiceRecord } from '../../domain/catalog-records.ts';
import { newId } from '../../domain/ids.ts';
import type { JoinForm } from '../../domain/waitlist/join.ts';
import type { Db } from '../../store/db.ts';
import { insertEntry } from '../../store/waitlist.ts';

/**
 * A guest joins the list from the time step (the form already checked by checkJoin): the entry
 * waits from now, its created_at the join order. The phone is stored as a booking stores it, so a
 * claim books with exactly these details.
 */
export async function joinWaitlist(
  db: Db,
  a: { businessId: string; location: LocationRecord; service: ServiceRecord; form: JoinForm; lang: string; secret: Buffer },
): Promise<string> {
  const id = newId('wl');
  const nonce = newLinkNonce();
  const { form } = a;
  await insertEntry(db, {
    id,
    businessId: a.businessId,
    locationId: a.location.id,
    serviceId: a.service.id,
    staffId: form.staff === 'any' ? null : form.staff,
    name: form.name.trim(),
    phone: normalizePhone(form.phone),
    email: normalizeEmail(form.email) ?? form.email.trim(),
    lang: a.lang,
    fromDate: form.from,
    toDate: form.to,
    earliestTime: form.earliest,
    latestTime: form.latest,
    withdrawNonce: nonce,
    withdrawTokenHash: linkTokenHash(linkToken(a.secret, 'withdraw', nonce)),
  });
  return id;
}

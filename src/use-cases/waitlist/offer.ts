import { longestDurationMinutes } from '../../domain/scheduling/staff-variants.ts';
import { AttemptGate } from '../../concurrency/attempt-gate.ts';
import { isAppError } from '../../domain/errors.ts';
import { linkTokenHash, linkToken, newLinkNonce } from '../../domain/guest-links.ts';
import { newId } from '../../domain/ids.ts';
import type { NewMessage } from '../../domain/messages/kinds.ts';
import { formatIsoDate, parseIsoDate } from '../../domain/time/calendar.ts';
import { localToInstant } from '../../domain/time/wall-clock.ts';
import { fittingTimes, type WaitlistEntry } from '../../domain/waitlist/entry.ts';
import type { GuestSettings } from '../../domain/guest-settings/settings.ts';
import type { LocationRecord, ServiceRecord } from '../../domain/catalog-records.ts';
import { findBusinessById } from '../../store/businesses.ts';
import type { Db, Queryable } from '../../store/db.ts';
import { planJob } from '../../store/jobs.ts';
import { findLocationById } from '../../store/locations.ts';
import { planMessages } from '../../store/messages.ts';
import { getServerSecret } from '../../store/server-settings.ts';
import { findServiceById } from '../../store/services.ts';
import { transactionWithRetry } from '../../store/tx-retry.ts';
import { causeHandled, entryWithdrawNonce, insertOffer, lockWaitingEntries, moveEntry, passedTimesOf } from '../../store/waitlist.ts';
import { readGuestSettings } from '../guest-settings.ts';
import { type HoldContext, holdInTransaction } from '../holds/create.ts';
import { bookableDates, weekTimes } from '../guest/times.ts';

/** The job that passes an unclaimed offer on when its hold ends (src/jobs/handlers/waitlist.ts). */
export const OFFER_EXPIRY_KIND = 'waitlist.offer_expiry';

/** Time that may have become free: one staff member's (or the location's) days, and what freed it. */
export interface FreedTime {
  businessId: string;
  locationId: string;
  /** the freed booking's service; undefined (removed time off): entries of every service */
  serviceId?: string | undefined;
  /** whose time freed; entries for another staff member are left out, `Any staff` ones kept */
  staffId?: string | undefined;
  /** the location-local days the time is on */
  dates: readonly string[];
  /** what freed it, once: a run again of the same cause offers nothing more */
  cause: string;
  /**
   * The freed time itself (ISO instants): only a start whose appointment overlaps it is offered,
   * so a time that was free all along is not offered as freed. None: any free start on the days.
   */
  ranges?: ReadonlyArray<{ from: string; to: string }> | undefined;
}

/** offerFreedTime in a transaction of its own (the job handlers). */
export function offerFreedTime(db: Db, freed: FreedTime, now: Date): Promise<string | undefined> {
  return transactionWithRetry(db, (tx) => offerInTransaction(tx, freed, now));
}

/**
 * The freed time goes to the oldest waiting entry that matches (location, service, staff or any,
 * a date of its range) and for which the availability engine finds a free start in its window on
 * those days now: that start is held for offerMinutes, the offer written, the entry `offered`, its
 * `waitlist.offer` message and the offer's expiry job planned, all in the caller's transaction.
 * Answers the offer's id, or undefined when nobody gets one.
 */
export async function offerInTransaction(tx: Queryable, freed: FreedTime, now: Date): Promise<string | undefined> {
  if (freed.dates.length === 0 || (await causeHandled(tx, freed.cause))) return undefined;
  const settings = await readGuestSettings(tx, freed.businessId);
  if (!settings.waitlist.enabled) return undefined;
  const location = await findLocationById(tx, freed.locationId);
  if (!location?.bookingEnabled) return undefined;
  const { today, last } = bookableDates(location, now);
  const dates = [...new Set(freed.dates)].filter((d) => d >= today && d <= last).sort();
  if (dates.length === 0) return undefined;
  const entries = await lockWaitingEntries(tx, {
    locationId: location.id,
    serviceId: freed.serviceId,
    staffId: freed.staffId,
    fromDate: dates[0]!,
    toDate: dates[dates.length - 1]!,
  });
  const secret = entries.length > 0 ? await getServerSecret(tx) : undefined;
  for (const entry of entries) {
    const offerId = await offerToEntry(tx, {
      entry,
      dates,
      location,
      settings,
      now,
      secret: secret!,
      cause: freed.cause,
      ranges: freed.ranges,
    });
    if (offerId) return offerId;
  }
  return undefined;
}

async function offerToEntry(
  tx: Queryable,
  a: {
    entry: WaitlistEntry;
    dates: string[];
    location: LocationRecord;
    settings: GuestSettings;
    now: Date;
    secret: Buffer;
    cause: string;
    ranges: FreedTime['ranges'];
  },
): Promise<string | undefined> {
  const { entry, location, settings } = a;
  const service = await findServiceById(tx, entry.serviceId);
  if (!service?.active || !service.onlineBookable || service.bookingMode === 'groupSession') return undefined;
  const dates = a.dates.filter((d) => d >= entry.fromDate && d <= entry.toDate);
  if (dates.length === 0) return undefined;
  const passed = await passedTimesOf(tx, entry.id);
  const ctx = {
    businessId: entry.businessId,
    location,
    service,
    holdMinutes: settings.waitlist.offerMinutes,
    now: a.now,
    gate: new AttemptGate(),
  };
  // A search spans at most a month: long ranges (a week of time off) are looked at a month at a time, earliest first.
  for (const chunk of monthsOf(dates)) {
    const first = chunk[0]!;
    const days = await weekTimes(tx, {
      location,
      service,
      staffId: entry.staffId ?? undefined,
      from: first,
      days: parseIsoDate(chunk[chunk.length - 1]!) - parseIsoDate(first) + 1,
      now: a.now,
      secret: a.secret,
    }).catch((err: unknown) => {
      // The staff member no longer offers the service: nothing of theirs can be offered.
      if (isAppError(err)) return [];
      throw err;
    });
    const wanted = new Set(chunk);
    const times = fittingTimes(
      entry,
      days.filter((d) => wanted.has(d.date)),
      passed,
    );
    // the longest staff member's variant: a time that may overlap the freed range is tried, the hold decides
    const minutes = longestDurationMinutes(service);
    const inFreed = a.ranges ? times.filter((t) => overlapsFreed(location.timezone, minutes, t, a.ranges!)) : times;
    const offerId = await holdFirst(tx, { ...a, service, ctx, times: inFreed });
    if (offerId) return offerId;
  }
  return undefined;
}

async function holdFirst(
  tx: Queryable,
  a: {
    entry: WaitlistEntry;
    location: LocationRecord;
    settings: GuestSettings;
    service: ServiceRecord;
    now: Date;
    secret: Buffer;
    cause: string;
    ctx: HoldContext;
    times: Array<{ date: string; startTime: string }>;
  },
): Promise<string | undefined> {
  const { entry, location, settings, service, ctx, times } = a;
  for (const slot of times) {
    let hold: Awaited<ReturnType<typeof holdInTransaction>>;
    try {
      hold = await holdInTransaction(tx, ctx, { staffId: entry.staffId ?? undefined, slot });
    } catch (err) {
      if (isAppError(err)) continue;
      throw err;
    }
    const offerId = newId('wlo');
    const claimNonce = newLinkNonce();
    await insertOffer(tx, {
      id: offerId,
      businessId: entry.businessId,
      entryId: entry.id,
      holdId: hold.id,
      staffId: hold.staffId,
      date: hold.slot.date,
      startTime: hold.slot.startTime,
      cause: a.cause,
      claimNonce,
      claimTokenHash: linkTokenHash(linkToken(a.secret, 'claim', claimNonce)),
      expiresAt: hold.expiresAt,
    });
    await moveEntry(tx, entry.id, ['waiting'], 'offered');
    const business = await findBusinessById(tx, entry.businessId);
    const data = {
      offerId,
      claimNonce,
      withdrawNonce: await entryWithdrawNonce(tx, entry.id),
      serviceName: service.name,
      staffName: entry.staffId === null ? null : hold.staffName,
      date: hold.slot.date,
      startTime: hold.slot.startTime,
      timezone: location.timezone,
      locationName: location.publicLocationName,
      salonName: business?.name ?? '',
      expiresAt: hold.expiresAt.toISOString(),
    };
    // Due at once by the database's clock (the hold's start), the clock the send job is claimed by.
    const heldAt = new Date(hold.expiresAt.getTime() - settings.waitlist.offerMinutes * 60_000);
    await planMessages(tx, offerMessages(entry, settings, data, offerId, heldAt));
    await planJob(tx, {
      kind: OFFER_EXPIRY_KIND,
      businessId: entry.businessId,
      payload: { offerId },
      runAt: hold.expiresAt,
      dedupeKey: `${OFFER_EXPIRY_KIND}:${offerId}`,
    });
    return offerId;
  }
  return undefined;
}

/** The offer's message: by email, and by SMS too when the business sends SMS (the phone is always given). */
function offerMessages(
  entry: WaitlistEntry,
  settings: GuestSettings,
  data: Record<string, unknown>,
  offerId: string,
  now: Date,
): NewMessage[] {
  const channels = settings.notifications.sms && entry.phone ? (['email', 'sms'] as const) : (['email'] as const);
  return channels.map((channel) => ({
    id: newId('msg'),
    businessId: entry.businessId,
    bookingId: null,
    waitlistEntryId: entry.id,
    kind: 'waitlist.offer',
    channel,
    audience: 'guest',
    recipient: channel === 'email' ? entry.email : entry.phone,
    lang: entry.lang,
    uniqueKey: `waitlist.offer:${offerId}:${channel}`,
    data,
    scheduledAt: now,
  }));
}

/** The days a local range of instants touches (time off), in the location's zone. */
export function datesBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = parseIsoDate(from); d <= parseIsoDate(to) && out.length < 366; d++) out.push(formatIsoDate(d));
  return out;
}

/** Sorted dates in runs of at most 28 days from each run's first. */
function monthsOf(dates: readonly string[]): string[][] {
  const out: string[][] = [];
  for (const d of dates) {
    const run = out[out.length - 1];
    if (run && parseIsoDate(d) - parseIsoDate(run[0]!) < 28) run.push(d);
    else out.push([d]);
  }
  return out;
}

/** Whether an appointment of `minutes` starting at the local slot overlaps one of the freed ranges. */
function overlapsFreed(
  timeZone: string,
  minutes: number,
  slot: { date: string; startTime: string },
  ranges: ReadonlyArray<{ from: string; to: string }>,
): boolean {
  const start = localToInstant({ date: slot.date, time: slot.startTime }, timeZone);
  if (!start) return false;
  const end = start.getTime() + minutes * 60_000;
  return ranges.some((r) => Date.parse(r.from) < end && Date.parse(r.to) > start.getTime());
}

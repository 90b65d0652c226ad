import { invalidField } from '../errors.ts';
import type { Features } from '../plans.ts';
import { parseHhMm } from '../time/hh-mm.ts';
import { LIMITS, type GuestSettingsPatch } from './settings.ts';

/**
 * The rules of guest-side.md's table that a JSON schema cannot say (the request schema already
 * holds the types, lengths, ranges, enums and patterns, built from LIMITS): URLs that really are
 * https URLs, origins in one spelling, distinct reminders, a quiet time that is a time span, and SMS
 * only on a plan that has it. Each refusal is 400 request.validation_failed naming the field's path
 * as the schema's own refusals spell it (`body.bookingPage.embedOrigins.3`, the
 * dotted form of Ajv that the dashboard's forms match on). Returns the patch as stored:
 * origins normalised (normaliseOrigins).
 */
export function checkGuestSettingsPatch(patch: GuestSettingsPatch, features: Features): GuestSettingsPatch {
  const page = patch.bookingPage;
  if (page) {
    for (const field of ['logoUrl', 'termsUrl', 'privacyUrl'] as const) {
      const url = page[field];
      if (typeof url === 'string') checkHttpsUrl(url, `body.bookingPage.${field}`);
    }
    if (page.embedOrigins) patch = { ...patch, bookingPage: { ...page, embedOrigins: normaliseOrigins(page.embedOrigins) } };
  }

  const notes = patch.notifications;
  if (notes?.reminders) {
    const seen = new Map<number, number>();
    notes.reminders.forEach((r, i) => {
      const first = seen.get(r.minutesBefore);
      if (first !== undefined) {
        throw invalidField(
          `body.notifications.reminders.${i}.minutesBefore`,
          `repeats reminders.${first}: each reminder needs its own minutesBefore`,
        );
      }
      seen.set(r.minutesBefore, i);
    });
  }
  const quiet = notes?.quietHours;
  if (quiet?.start !== undefined && quiet.end !== undefined && parseHhMm(quiet.start) === parseHhMm(quiet.end)) {
    throw invalidField('body.notifications.quietHours.end', 'must differ from start (use null for no quiet hours)');
  }
  if (notes?.sms === true && !features.smsNotifications) {
    throw invalidField('body.notifications.sms', "can be true only when the business's plan has the smsNotifications feature");
  }
  return patch;
}

/** An absolute https URL with a host and no credentials. */
export function checkHttpsUrl(text: string, path: string): void {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalidField(path, 'must be an absolute https URL');
  }
  if (url.protocol !== 'https:' || url.hostname === '') throw invalidField(path, 'must be an absolute https URL');
  if (url.username !== '' || url.password !== '') throw invalidField(path, 'must not carry a user name or password');
}

const ORIGIN_SHAPE = /^https:\/\/[^/?#@\\\s]+$/i;

/**
 * `https://host[:port]` exactly: no path (not even the trailing slash), query, fragment or
 * credentials. Stored as the URL standard serialises an origin (host in lower case, IDN as
 * punycode, `:443` dropped), since the browser compares that spelling against `frame-ancestors`.
 */
export function normaliseOrigin(text: string, path: string): string {
  const refuse = () => invalidField(path, 'must be an origin https://host[:port] with no path and no trailing slash');
  if (!ORIGIN_SHAPE.test(text)) throw refuse();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw refuse();
  }
  if (url.protocol !== 'https:' || url.hostname === '' || url.pathname !== '/') throw refuse();
  return url.origin;
}

/** Every origin normalised; one that repeats an earlier one (after normalising) is refused. */
export function normaliseOrigins(origins: readonly string[]): string[] {
  if (origins.length > LIMITS.embedOriginsMax) {
    throw invalidField('body.bookingPage.embedOrigins', `must have at most ${LIMITS.embedOriginsMax} origins`);
  }
  const out: string[] = [];
  origins.forEach((o, i) => {
    const origin = normaliseOrigin(o, `body.bookingPage.embedOrigins.${i}`);
    const first = out.indexOf(origin);
    if (first !== -1) throw invalidField(`body.bookingPage.embedOrigins.${i}`, `repeats embedOrigins.${first} (${origin})`);
    out.push(origin);
  });
  return out;
}

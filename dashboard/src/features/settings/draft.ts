import type { FormErrors } from '../../lib/form-errors.ts';
import type { GuestSettings, GuestSettingsPatch } from './queries.ts';
import { pageWordsNow } from '../../lib/i18n/page-words.ts';
import { settingsWords } from './words.ts';

/**
 * The settings as the form edits them: flat, numbers as the text typed (an empty or odd one goes
 * to the API as it is and comes back refused by name, beside its field), lists as rows of text.
 */
export interface Draft {
  enabled: boolean;
  introText: string;
  accentColor: string;
  logoUrl: string;
  embedOrigins: string[];
  termsUrl: string;
  privacyUrl: string;
  termsVersion: string;
  privacyNoticeVersion: string;
  holdMinutes: string;
  cancelAllowed: boolean;
  cancelNotice: string;
  rescheduleAllowed: boolean;
  rescheduleNotice: string;
  guestEmail: GuestSettings['notifications']['guestEmail'];
  reminders: string[];
  quietOn: boolean;
  quietStart: string;
  quietEnd: string;
  sms: boolean;
  newRequest: boolean;
  guestCancelled: boolean;
  waitlistEnabled: boolean;
  offerMinutes: string;
}

/** The defaults of docs/guest-settings.md, offered when quiet hours are turned back on. */
const QUIET_DEFAULT = { start: '21:00', end: '08:00' };

export function toDraft(s: GuestSettings): Draft {
  const p = s.bookingPage;
  const n = s.notifications;
  return {
    enabled: p.enabled,
    introText: p.introText ?? '',
    accentColor: p.accentColor ?? '',
    logoUrl: p.logoUrl ?? '',
    embedOrigins: [...p.embedOrigins],
    termsUrl: p.termsUrl ?? '',
    privacyUrl: p.privacyUrl ?? '',
    termsVersion: p.termsVersion,
    privacyNoticeVersion: p.privacyNoticeVersion,
    holdMinutes: String(s.holdMinutes),
    cancelAllowed: s.guestCancel.allowed,
    cancelNotice: String(s.guestCancel.noticeMinutes),
    rescheduleAllowed: s.guestReschedule.allowed,
    rescheduleNotice: String(s.guestReschedule.noticeMinutes),
    guestEmail: n.guestEmail,
    reminders: n.reminders.map((r) => String(r.minutesBefore)),
    quietOn: n.quietHours !== null,
    quietStart: n.quietHours?.start ?? QUIET_DEFAULT.start,
    quietEnd: n.quietHours?.end ?? QUIET_DEFAULT.end,
    sms: n.sms,
    newRequest: n.businessEmail.newRequest,
    guestCancelled: n.businessEmail.guestCancelled,
    waitlistEnabled: s.waitlist.enabled,
    offerMinutes: String(s.waitlist.offerMinutes),
  };
}

/** Text as a number; empty is null, which the API refuses naming the field (the page's words then say what it takes). */
const num = (text: string) => (text.trim() === '' ? null : Number(text.trim())) as number;
const orNull = (text: string) => (text.trim() === '' ? null : text.trim());

export function fromDraft(d: Draft): GuestSettings {
  return {
    bookingPage: {
      enabled: d.enabled,
      introText: d.introText.trim() === '' ? null : d.introText,
      accentColor: orNull(d.accentColor),
      logoUrl: orNull(d.logoUrl),
      embedOrigins: d.embedOrigins.map((o) => o.trim()),
      termsUrl: orNull(d.termsUrl),
      privacyUrl: orNull(d.privacyUrl),
      termsVersion: d.termsVersion.trim(),
      privacyNoticeVersion: d.privacyNoticeVersion.trim(),
    },
    holdMinutes: num(d.holdMinutes),
    guestCancel: { allowed: d.cancelAllowed, noticeMinutes: num(d.cancelNotice) },
    guestReschedule: { allowed: d.rescheduleAllowed, noticeMinutes: num(d.rescheduleNotice) },
    notifications: {
      guestEmail: d.guestEmail,
      reminders: d.reminders.map((r) => ({ minutesBefore: num(r) })),
      quietHours: d.quietOn ? { start: d.quietStart, end: d.quietEnd } : null,
      sms: d.sms,
      businessEmail: { newRequest: d.newRequest, guestCancelled: d.guestCancelled },
    },
    waitlist: { enabled: d.waitlistEnabled, offerMinutes: num(d.offerMinutes) },
  };
}

/** Values the API takes only whole: quiet hours need both ends; lists replace. */
const WHOLE = new Set(['quietHours']);

/**
 * What changed between the stored settings and the form's, as a PATCH (docs/guest-settings.md,
 * "How a PATCH merges"): only changed fields, so two people saving different fields at once do
 * not undo each other. Undefined when nothing changed.
 */
export function changes(before: GuestSettings, after: GuestSettings): GuestSettingsPatch | undefined {
  return diff(before, after) as GuestSettingsPatch | undefined;
}

function diff(before: unknown, after: unknown, key = ''): unknown {
  if (isObject(before) && isObject(after) && !WHOLE.has(key)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(after)) {
      const c = diff(before[k], after[k], k);
      if (c !== undefined) out[k] = c;
    }
    return Object.keys(out).length > 0 ? out : undefined;
  }
  return JSON.stringify(before) === JSON.stringify(after) ? undefined : after;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The bounds of docs/guest-settings.md (the API checks them; the page only names them). */
export const MAX_REMINDERS = 3;
export const MAX_ORIGINS = 20;

/**
 * What each field takes, in the words the page shows beside it when the API refuses it (its own
 * messages name JSON paths and schema terms): the catalog's `settings.words`, where `#` stands for
 * a list item's index.
 */
const words = () => pageWordsNow(settingsWords).words;

/** Every field name the form shows a message beside (list items by index), for formErrors. */
export const KNOWN_FIELDS: readonly string[] = Object.keys(words()).flatMap((name) => {
  if (!name.endsWith('.#')) return [name];
  const max = name.startsWith('notifications.reminders') ? MAX_REMINDERS : MAX_ORIGINS;
  return Array.from({ length: max }, (_, i) => name.replace('#', String(i)));
});

/** The refused fields in the page's words (the API's message only for a field the page has no words for). */
export function plainWords(errors: FormErrors): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, message] of Object.entries(errors.fields)) out[name] = words()[name.replace(/\.\d+$/, '.#')] ?? message;
  return out;
}

/** A number of minutes as a person says it: `1 day`, `2 hours`, `1 hour 30 minutes`. Empty for what is not a whole number. */
export function spokenMinutes(text: string): string {
  const m = Number(text);
  if (text.trim() === '' || !Number.isInteger(m) || m < 0) return '';
  const t = pageWordsNow(settingsWords);
  if (m === 0) return t.noNotice;
  const parts = [
    [Math.floor(m / 1440), 'day'],
    [Math.floor((m % 1440) / 60), 'hour'],
    [m % 60, 'minute'],
  ] as const;
  return parts
    .filter(([n]) => n !== 0)
    .map(([n, unit]) => t.unit(n, unit))
    .join(' ');
}

import { DETAILS_LIMITS } from '../booking-page/details.ts';
import { normalizeEmail, normalizePhone } from '../bookings/guest.ts';
import { parseIsoDate } from '../time/calendar.ts';

/** The join form as posted (every value a string, or absent). */
export interface JoinForm {
  name: string;
  phone: string;
  email: string;
  from: string;
  to: string;
  earliest: string;
  latest: string;
  /** a staff id, or `any` */
  staff: string;
  /** the honeypot: a person never fills it in */
  website: string;
}

export type JoinField = 'name' | 'phone' | 'email' | 'from' | 'to' | 'earliest' | 'latest' | 'staff';
export type JoinProblem = 'required' | 'invalid' | 'tooLong' | 'past' | 'beforeFrom' | 'beyondHorizon' | 'beforeEarliest';
export type JoinErrors = Partial<Record<JoinField, JoinProblem>>;

function str(v: unknown): string {
  if (Array.isArray(v)) return str(v[0]);
  return typeof v === 'string' ? v : '';
}

export function readJoinForm(body: Record<string, unknown>): JoinForm {
  return {
    name: str(body.name).slice(0, 500),
    phone: str(body.phone).slice(0, 200),
    email: str(body.email).slice(0, 500),
    from: str(body.from).slice(0, 20).trim(),
    to: str(body.to).slice(0, 20).trim(),
    earliest: str(body.earliest).slice(0, 10).trim(),
    latest: str(body.latest).slice(0, 10).trim(),
    staff: str(body.staff).slice(0, 100) || 'any',
    website: str(body.website),
  };
}

function isDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  try {
    parseIsoDate(s);
    return true;
  } catch {
    return false;
  }
}

/** HH:MM of a day (24:00 is not a start). */
function isTime(s: string): boolean {
  return /^([01]\d|2[0-3]):[0-5]\d$/.test(s);
}

function isPhone(phone: string): boolean {
  try {
    normalizePhone(phone);
    return true;
  } catch {
    return false;
  }
}

/**
 * The join rules: name, phone and email as the details step asks them (an offer is claimed into a
 * booking with them); a range of dates from today to the location's horizon; a window whose latest
 * start is not before its earliest; a staff member who offers the service, or any.
 */
export function checkJoin(form: JoinForm, ctx: { today: string; lastDate: string; staffIds: readonly string[] }): JoinErrors {
  const errors: JoinErrors = {};
  const name = form.name.trim();
  if (name === '') errors.name = 'required';
  else if ([...name].length > DETAILS_LIMITS.name) errors.name = 'tooLong';
  const phone = form.phone.trim();
  if (phone === '') errors.phone = 'required';
  else if (phone.length > DETAILS_LIMITS.phone || !isPhone(phone)) errors.phone = 'invalid';
  const email = form.email.trim();
  if (email === '') errors.email = 'required';
  else if (email.length > DETAILS_LIMITS.email || normalizeEmail(email) === null) errors.email = 'invalid';
  if (form.from === '') errors.from = 'required';
  else if (!isDate(form.from)) errors.from = 'invalid';
  else if (form.from < ctx.today) errors.from = 'past';
  else if (form.from > ctx.lastDate) errors.from = 'beyondHorizon';
  if (form.to === '') errors.to = 'required';
  else if (!isDate(form.to)) errors.to = 'invalid';
  else if (form.to > ctx.lastDate) errors.to = 'beyondHorizon';
  else if (errors.from === undefined && form.to < form.from) errors.to = 'beforeFrom';
  if (form.earliest === '') errors.earliest = 'required';
  else if (!isTime(form.earliest)) errors.earliest = 'invalid';
  if (form.latest === '') errors.latest = 'required';
  else if (!isTime(form.latest)) errors.latest = 'invalid';
  else if (errors.earliest === undefined && form.latest < form.earliest) errors.latest = 'beforeEarliest';
  if (form.staff !== 'any' && !ctx.staffIds.includes(form.staff)) errors.staff = 'invalid';
  return errors;
}

export function isJoinHoneypotFilled(form: JoinForm): boolean {
  return form.website.trim() !== '';
}

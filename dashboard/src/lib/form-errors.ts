import { ApiError, type ErrorCode, type ValidationIssue } from './api.ts';
import { currentMessages, type Messages } from './i18n/index.ts';

/** What a form shows of a refused write: messages beside fields, and one for the whole form. */
export interface FormErrors {
  /** the words per field name (`body.address.city` -> `address.city`) */
  fields: Record<string, string>;
  /** what no shown field names, in words (or the page's, see `words`) */
  form: string | null;
}

export const NO_ERRORS: FormErrors = { fields: {}, form: null };

function issuesOf(error: ApiError): ValidationIssue[] {
  const issues = (error.details as { issues?: unknown } | undefined)?.issues;
  if (!Array.isArray(issues)) return [];
  return issues.map((i: { path?: unknown; message?: unknown }) => ({
    path: String(i.path ?? ''),
    message: String(i.message ?? 'is invalid'),
  }));
}

/**
 * Whether the API's own English can be shown as it is: it is written for the situation (`That time
 * clashes with another booking.`), unless it speaks to a programmer (a JSON path, a regular
 * expression, a header, the code itself). Anything else gets the catalog's sentence.
 */
const JARGON = /\b(body|query|params|headers)\b[.[]|pattern|schema|header|idempotency|cursor|route|smtp|json|uuid|iso \d|iana|rfc/i;
function readable(message: string, code: ErrorCode): boolean {
  return message.trim() !== '' && !message.includes(code) && !JARGON.test(message);
}

/** A refused write in words: the API's message in English when it is plain, else the catalog's sentence. */
export function errorWords(error: unknown, t: Messages = currentMessages()): string {
  // not an answer of the API: the browser's own failure (offline), in its words
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : String(error);
  if (t.lang === 'en' && readable(error.message, error.code)) return error.message;
  return t.errors[error.code] ?? t.errors['internal.error'];
}

/** `body.visit[1].serviceId` -> ['visit', '1', 'serviceId'] (without the `body`, `query` or `params` part). */
function segments(path: string): string[] {
  return path
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .slice(1)
    .filter(Boolean);
}

/**
 * One validation issue in words, by what the API says is wrong and which field it is about: a
 * phone or a slug has its own sentence, the rest say what to enter. Numbers are taken from the
 * API's message (`fewer than 10 characters`); nothing else of it is shown.
 */
export function issueWords(path: string, message: string, t: Messages = currentMessages()): string {
  const field =
    segments(path)
      .filter((s) => !/^\d+$/.test(s))
      .at(-1) ?? '';
  const i = t.issues;
  const m = message;
  const n = (re: RegExp) => re.exec(m)?.[1] ?? '';
  if (/required property|is required|must not be blank|fewer than 1 character|must be true/.test(m)) return i.required;
  if (field === 'phone' || /phone number/.test(m)) return i.phone;
  if (/already taken/.test(m)) return i.taken;
  if (/must match pattern/.test(m)) return field === 'slug' ? i.slug : /https/.test(m) ? i.origin : i.pattern;
  if (/fewer than \d+ characters/.test(m)) {
    const min = Number(n(/fewer than (\d+)/));
    return field === 'password' ? i.password(min) : i.tooShort(min);
  }
  if (/more than \d+ characters/.test(m)) return i.tooLong(Number(n(/more than (\d+)/)));
  if (/\d+ to \d+ characters/.test(m)) return i.tooLong(Number(n(/to (\d+) characters/)));
  if (/decimals/.test(m)) return i.decimals;
  if (/must be >= ?-?[\d.]+|greater than or equal/.test(m)) return i.atLeast(n(/(-?[\d.]+)\s*$/));
  if (/must be > ?-?[\d.]+|greater than/.test(m)) return i.atLeast(String(Number(n(/(-?[\d.]+)\s*$/)) + (/integer/.test(m) ? 1 : 0.01)));
  if (/must be <= ?-?[\d.]+|less than or equal|at most/.test(m)) return i.atMost(n(/(-?[\d.]+)\D*$/));
  if (/must be integer/.test(m)) return i.wholeNumber;
  if (/must be number/.test(m)) return i.number;
  if (field === 'email' || /format "email"|valid email/.test(m)) return i.email;
  if (/time zone/.test(m)) return i.timezone;
  if (/date-time|ISO 8601/.test(m)) return i.dateTime;
  if (/format "date"|calendar date|real date/.test(m)) return i.date;
  if (/origin/.test(m)) return i.origin;
  if (/https|format "uri"|user name or password/.test(m)) return i.https;
  if (/must be after|must not be before|must differ from/.test(m)) return i.order;
  if (/in the future/.test(m)) return i.future;
  if (/overlaps/.test(m)) return i.overlap;
  if (/allowed values|equal to constant|must match (exactly one|a schema)/.test(m)) return i.choose;
  if (
    /not an allowed property|is only for|is not used|only allowed|may not hold|cannot be changed|must be null|left out|must be empty/.test(
      m,
    )
  )
    return i.notAllowed;
  return i.invalid;
}

/**
 * The one mapper from a refused write to a form, in the member's language: a 400
 * `request.validation_failed` answer's `details.issues` go beside the field they name, in words
 * (`body.x` -> field `x`; `known` are the names the form shows, and a path is matched to its longest
 * known prefix: `workingHours.3.start` -> `workingHours`), each sentence once; what no shown field
 * names is one form-level message naming the field. Any other refusal is one form-level message
 * (errorWords). `words` replaces that for a code with the page's own (typed by the catalog, so a
 * misspelt code does not compile). No message it returns holds a JSON path, a pattern or a code.
 */
export function formErrors(
  error: unknown,
  known: readonly string[],
  words: Partial<Record<ErrorCode, string>> = {},
  t: Messages = currentMessages(),
): FormErrors {
  if (!error) return NO_ERRORS;
  if (!(error instanceof ApiError)) return { fields: {}, form: error instanceof Error ? error.message : String(error) };
  const issues = issuesOf(error);
  if (error.code !== 'request.validation_failed' || issues.length === 0) {
    return { fields: {}, form: words[error.code] ?? errorWords(error, t) };
  }
  const said: Record<string, string[]> = {};
  const rest: string[] = [];
  const add = (list: string[], sentence: string) => list.includes(sentence) || list.push(sentence);
  for (const { path, message } of issues) {
    const parts = path.startsWith('body.') ? segments(path) : [];
    let name: string | undefined;
    for (let k = parts.length; k > 0 && !name; k--) {
      const candidate = parts.slice(0, k).join('.');
      if (known.includes(candidate)) name = candidate;
    }
    const sentence = issueWords(path, message, t);
    if (name) {
      const list = said[name] ?? [];
      said[name] = list;
      add(list, sentence);
    } else {
      const last =
        segments(path)
          .filter((s) => !/^\d+$/.test(s))
          .at(-1) ?? '';
      add(rest, `${t.fieldNames[last] ?? t.otherField}: ${sentence}`);
    }
  }
  const fields = Object.fromEntries(Object.entries(said).map(([k, v]) => [k, v.join(' ')]));
  return { fields, form: rest.length > 0 ? `${t.errors['request.validation_failed']} ${rest.join(' ')}` : null };
}

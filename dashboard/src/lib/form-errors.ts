import { ApiError, type ErrorCode, type ValidationIssue } from './api.ts';

/** What a form shows of a refused write: messages beside fields, and one for the whole form. */
export interface FormErrors {
  /** the API's message per field name (`body.address.city` -> `address.city`) */
  fields: Record<string, string>;
  /** what no shown field names, in the API's words (or the page's, see `words`) */
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
 * The one mapper from a refused write to a form: a 400 `request.validation_failed` answer's
 * `details.issues` go beside the field they name (`body.x` -> field `x`; `known` are the names the
 * form shows, and a path is matched to its longest known prefix: `workingHours.3.start` ->
 * `workingHours`); everything else is one form-level message. `words` replaces the API's message
 * for a code with the page's own (typed by the catalog, so a misspelt code does not compile).
 */
export function formErrors(error: unknown, known: readonly string[], words: Partial<Record<ErrorCode, string>> = {}): FormErrors {
  if (!error) return NO_ERRORS;
  if (!(error instanceof ApiError)) return { fields: {}, form: error instanceof Error ? error.message : String(error) };
  const issues = issuesOf(error);
  if (error.code !== 'request.validation_failed' || issues.length === 0) {
    return { fields: {}, form: words[error.code] ?? error.message };
  }
  const fields: Record<string, string> = {};
  const rest: string[] = [];
  for (const { path, message } of issues) {
    let name: string | undefined;
    if (path.startsWith('body.')) {
      const parts = path.slice(5).split('.');
      for (let n = parts.length; n > 0 && !name; n--) {
        const candidate = parts.slice(0, n).join('.');
        if (known.includes(candidate)) name = candidate;
      }
    }
    if (name) fields[name] = fields[name] ? `${fields[name]}; ${message}` : message;
    else rest.push(`${path} ${message}`.trim());
  }
  return { fields, form: rest.length > 0 ? `${error.message} ${rest.join('; ')}`.trim() : null };
}

import { ApiError } from '../../lib/api.ts';

/**
 * The API's message about one field: a 400 request.validation_failed carries
 * `details.issues: [{ path, message }]` (`body.password`, …). Answers the API's words about that
 * field when an issue names `path`, undefined otherwise (the message then goes under the form).
 */
export function fieldError(err: unknown, path: string): string | undefined {
  if (!(err instanceof ApiError)) return undefined;
  const issues = (err.details as { issues?: Array<{ path?: string; message?: string }> } | undefined)?.issues;
  const hit = issues?.find((i) => i.path === path);
  if (!hit) return undefined;
  // The issue's own text ("must NOT have fewer than 10 characters"), after the field's name; a
  // message that already names the field (a use case's "body.userId is not a member …") as it is.
  const field = path.replace(/^body\./, '');
  return err.message.startsWith(path)
    ? err.message.replace(path, field)
    : `${field[0]!.toUpperCase()}${field.slice(1)} ${hit.message ?? ''}`.trim();
}

/** True when some issue of the error names one of `paths` (the form shows it beside that field). */
export function namesAField(err: unknown, paths: readonly string[]): boolean {
  return paths.some((p) => fieldError(err, p) !== undefined);
}

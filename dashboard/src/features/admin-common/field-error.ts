import { ApiError } from '../../lib/api.ts';

/**
 * The API's message about one field: a 400 request.validation_failed carries
 * `details.issues: [{ path, message }]` (`body.password`, …). Answers the API's message when an
 * issue names `path`, undefined otherwise (the message then goes under the form).
 */
export function fieldError(err: unknown, path: string): string | undefined {
  if (!(err instanceof ApiError)) return undefined;
  const issues = (err.details as { issues?: Array<{ path?: string; message?: string }> } | undefined)?.issues;
  const hit = issues?.find((i) => i.path === path);
  if (!hit) return undefined;
  return issues!.length === 1 ? err.message : `${path.replace(/^body\./, '')} ${hit.message ?? ''}`.trim();
}

/** True when some issue of the error names one of `paths` (the form shows it beside that field). */
export function namesAField(err: unknown, paths: readonly string[]): boolean {
  return paths.some((p) => fieldError(err, p) !== undefined);
}

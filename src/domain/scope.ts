import { AppError } from './errors.ts';

/**
 * A salon outside the key's business is a 403, never a 404, so that other businesses cannot be
 * discovered by probing slugs.
 */
export function checkSalon(auth: { businessSlug: string }, salonSlug: string | undefined): void {
  if (salonSlug !== undefined && salonSlug !== auth.businessSlug) throw new AppError('auth.scope_mismatch');
}

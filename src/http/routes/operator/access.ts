import type { ErrorCode } from '../../../domain/errors.ts';
import { ROLES, type RouteRoles } from '../../../domain/members/roles.ts';
import type { BusinessLocator } from '../../../store/resource-business.ts';
import type { RouteAccess } from '../../context.ts';

/**
 * An operator route's access, as data (operator-auth.ts decides from it): which roles may call it,
 * and which route parameter names the business it touches. The platform operator may call them all.
 */
export function operatorAccess(roles: RouteRoles, business: BusinessLocator | 'none'): { access: RouteAccess } {
  return { access: { surface: 'operator', roles, business } };
}

/** Routes about no single business that only the platform operator may call. */
export const PLATFORM_ONLY = operatorAccess('platform', 'none');

export { ROLES };

/** Errors every operator route can give. */
export const OPERATOR_ERRORS: readonly ErrorCode[] = [
  'auth.invalid_key',
  'auth.insufficient_capability',
  'auth.scope_mismatch',
  'auth.origin_denied',
  'request.validation_failed',
  'internal.error',
];

/** Either credential: the platform token, or the member session cookie. */
export const OPERATOR_SCHEMA: { tags: string[]; security: Array<Record<string, string[]>> } = {
  tags: ['operator'],
  security: [{ operatorToken: [] }, { memberSession: [] }],
};

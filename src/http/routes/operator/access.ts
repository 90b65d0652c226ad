import type { ErrorCode } from '../../../domain/errors.ts';
import type { RouteAccess } from '../../context.ts';

export const OPERATOR: { access: RouteAccess } = { access: { surface: 'operator' } };

/** Errors every operator route can give. */
export const OPERATOR_ERRORS: readonly ErrorCode[] = ['auth.invalid_key', 'request.validation_failed', 'internal.error'];

export const OPERATOR_SCHEMA = { tags: ['operator'], security: [{ operatorToken: [] }] };

import { AppError } from '../domain/errors.ts';
import { checkSalon } from '../domain/scope.ts';
import { toSubscriptionView } from '../domain/subscription-view.ts';
import type { Queryable } from '../store/db.ts';
import { getSubscription } from '../store/subscriptions.ts';

/** GET /v1/subscription: the key's business's plan, status, features, limits and this month's count. */
export async function subscriptionOf(q: Queryable, auth: { businessId: string; businessSlug: string }, salonSlug: string | undefined) {
  checkSalon(auth, salonSlug);
  const subscription = await getSubscription(q, auth.businessId);
  // Every business is created with its subscription: a missing one is a broken database.
  if (!subscription) throw new AppError('internal.error');
  return toSubscriptionView(subscription);
}

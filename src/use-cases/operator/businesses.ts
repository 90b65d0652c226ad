import { AppError, invalidField } from '../../domain/errors.ts';
import { newId } from '../../domain/ids.ts';
import { isKnownCurrency } from '../../domain/money.ts';
import { toSubscriptionView, type SubscriptionView } from '../../domain/subscription-view.ts';
import type { Db, Queryable } from '../../store/db.ts';
import {
  findBusinessBySlug,
  insertBusiness,
  listBusinesses as listBusinessRows,
  setClientRetention,
  type BusinessRow,
} from '../../store/businesses.ts';
import {
  getSubscription,
  getSubscriptions,
  insertSubscription,
  updateSubscription,
  type SubscriptionFields,
} from '../../store/subscriptions.ts';

export interface BusinessView {
  id: string;
  slug: string;
  name: string;
  currency: string;
  createdAt: string;
  /** clients with no booking in this many months are erased (docs/clients-and-privacy.md); null keeps them */
  clientRetentionMonths: number | null;
  subscription: SubscriptionView;
}

/** A plan and a status come together: `setup` has no plan, every other status needs one. */
function checkPlanStatus(f: SubscriptionFields, current?: { plan: string | null; status: string }): void {
  const plan = f.plan !== undefined ? f.plan : (current?.plan ?? null);
  const status = f.status ?? current?.status ?? 'setup';
  if (status === 'setup' && plan !== null) {
    throw invalidField('body.subscription.plan', 'must be null while status is setup');
  }
  if (status !== 'setup' && plan === null) {
    throw invalidField('body.subscription.plan', `is required when status is ${status}`);
  }
}

export async function requireBusiness(q: Queryable, slug: string): Promise<BusinessRow> {
  const b = await findBusinessBySlug(q, slug);
  if (!b) throw new AppError('request.not_found', `No business with slug "${slug}".`);
  return b;
}

export async function createBusiness(
  db: Db,
  input: { slug: string; name: string; currency: string; subscription?: SubscriptionFields },
): Promise<BusinessView> {
  if (!isKnownCurrency(input.currency)) throw invalidField('body.currency', 'is not an ISO 4217 currency code');
  const sub: SubscriptionFields = input.subscription ?? { status: 'setup', plan: null };
  // A plan without a status means the business is running on it.
  const withStatus: SubscriptionFields = { ...sub, status: sub.status ?? (sub.plan ? 'active' : 'setup') };
  checkPlanStatus(withStatus);
  return db.transaction(async (tx) => {
    const b = await insertBusiness(tx, { id: newId('biz'), slug: input.slug, name: input.name, currency: input.currency });
    if (b === 'slug_taken') throw invalidField('body.slug', 'is already taken');
    await insertSubscription(tx, b.id, withStatus);
    return businessView(b, await getSubscription(tx, b.id));
  });
}

export async function patchSubscription(db: Db, slug: string, f: SubscriptionFields): Promise<SubscriptionView> {
  return db.transaction(async (tx) => {
    const b = await requireBusiness(tx, slug);
    const current = await getSubscription(tx, b.id);
    checkPlanStatus(f, current);
    await updateSubscription(tx, b.id, f);
    return toSubscriptionView((await getSubscription(tx, b.id))!);
  });
}

/** Every business with its subscription, by slug then id (the store orders them). */
/** `visible`: every business (the platform operator), or only these ids (a member's businesses). */
export async function listBusinesses(db: Db, visible: 'all' | readonly string[]): Promise<BusinessView[]> {
  return db.transaction(async (tx) => {
    const all = await listBusinessRows(tx);
    const rows = visible === 'all' ? all : all.filter((b) => visible.includes(b.id));
    const subs = new Map(
      (
        await getSubscriptions(
          tx,
          rows.map((b) => b.id),
        )
      ).map((s) => [s.businessId, s]),
    );
    return rows.map((b) => businessView(b, subs.get(b.id)));
  });
}

export async function getBusiness(db: Db, slug: string): Promise<BusinessView> {
  return db.transaction(async (tx) => {
    const b = await requireBusiness(tx, slug);
    return businessView(b, await getSubscription(tx, b.id));
  });
}

function businessView(b: BusinessRow, sub: Parameters<typeof toSubscriptionView>[0] | undefined): BusinessView {
  return {
    id: b.id,
    slug: b.slug,
    name: b.name,
    currency: b.currency,
    createdAt: b.created_at.toISOString(),
    clientRetentionMonths: b.client_retention_months,
    subscription: toSubscriptionView(sub!),
  };
}

/** PATCH /admin/v1/businesses/{slug}: the business's own settings (today its client retention). */
export async function patchBusiness(
  db: Db,
  slug: string,
  patch: { clientRetentionMonths?: number | null | undefined },
): Promise<BusinessView> {
  return db.transaction(async (tx) => {
    const b = await requireBusiness(tx, slug);
    if (patch.clientRetentionMonths !== undefined) await setClientRetention(tx, b.id, patch.clientRetentionMonths);
    return businessView((await requireBusiness(tx, slug))!, await getSubscription(tx, b.id));
  });
}

import type { DeliveryView } from '../../domain/webhooks/delivery-view.ts';
import type { Db, Queryable } from '../../store/db.ts';
import { requireBusiness } from '../operator/businesses.ts';
import { getWebhookConfig, putWebhookConfig, removeWebhookConfig, rotateWebhookSecret, type WebhookResult } from './config.ts';
import { listWebhookDeliveries, type DeliveryLogQuery } from './deliveries.ts';
import { redeliverWebhook, type RedeliverInput } from './redeliver.ts';

/**
 * The webhook reads and the redelivery of the operator API: the public use cases, for the business
 * a slug names (business-side.md). The configuration never carries the secret here.
 */

export async function operatorWebhookConfig(q: Queryable, slug: string): Promise<WebhookResult> {
  const business = await requireBusiness(q, slug);
  return getWebhookConfig(q, business.id);
}

export async function operatorWebhookDeliveries(
  q: Queryable,
  slug: string,
  p: Omit<DeliveryLogQuery, 'businessId'>,
): Promise<{ deliveries: DeliveryView[]; cursor: string | undefined }> {
  const business = await requireBusiness(q, slug);
  return listWebhookDeliveries(q, { ...p, businessId: business.id });
}

export async function operatorRedeliver(q: Queryable, slug: string, p: Omit<RedeliverInput, 'businessId'>): Promise<DeliveryView> {
  const business = await requireBusiness(q, slug);
  return redeliverWebhook(q, { ...p, businessId: business.id });
}

/**
 * The configuration writes of the operator API (owner): the public use cases (same URL rules, same
 * secret handling: shown once by the PUT that creates it and by rotate-secret), for the business a
 * slug names, each in one transaction.
 */
export async function operatorPutWebhook(
  db: Db,
  slug: string,
  p: { url: string; allowPrivateTargets: boolean; serverSecret: Buffer; now: Date },
): Promise<WebhookResult> {
  return db.transaction(async (tx) => {
    const business = await requireBusiness(tx, slug);
    return putWebhookConfig(tx, { ...p, businessId: business.id });
  });
}

export async function operatorRotateWebhookSecret(db: Db, slug: string, p: { serverSecret: Buffer; now: Date }): Promise<WebhookResult> {
  return db.transaction(async (tx) => {
    const business = await requireBusiness(tx, slug);
    return rotateWebhookSecret(tx, { ...p, businessId: business.id });
  });
}

export async function operatorDeleteWebhook(db: Db, slug: string): Promise<WebhookResult> {
  return db.transaction(async (tx) => {
    const business = await requireBusiness(tx, slug);
    return removeWebhookConfig(tx, business.id);
  });
}

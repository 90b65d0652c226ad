import type { DeliveryView } from '../../domain/webhooks/delivery-view.ts';
import type { Queryable } from '../../store/db.ts';
import { requireBusiness } from '../operator/businesses.ts';
import { getWebhookConfig, type WebhookResult } from './config.ts';
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

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type ErrorCode, unwrap } from '../../lib/api.ts';
import type { operations } from '../../lib/api-types.ts';
import { currentMessages } from '../../lib/i18n/index.ts';
import { webhookKeys } from '../../lib/query-keys.ts';

export type DeliveryQuery = NonNullable<operations['operatorListWebhookDeliveries']['parameters']['query']>;
export type DeliveryEvent = NonNullable<DeliveryQuery['event']>;
export type DeliveryOutcome = NonNullable<DeliveryQuery['outcome']>;

export const EVENTS: readonly DeliveryEvent[] = [
  'booking.requested',
  'booking.confirmed',
  'booking.declined',
  'booking.cancelled',
  'booking.reschedule_proposed',
  'booking.reschedule_confirmed',
  'booking.completed',
  'booking.no_show',
];
export const OUTCOMES: readonly DeliveryOutcome[] = ['success', 'timeout', 'network_error', 'http_error'];
export const PAGE = 25;

/** The configuration; null when none is set (404 webhook.not_configured). */
export function useWebhook(slug: string, enabled: boolean) {
  return useQuery({
    queryKey: webhookKeys.config(slug),
    enabled,
    queryFn: async () => {
      const r = await api.GET('/admin/v1/businesses/{slug}/webhook', { params: { path: { slug } } });
      if (r.response.status === 404 && (r.error as { error?: { code?: ErrorCode } })?.error?.code === 'webhook.not_configured') return null;
      return unwrap(r).webhook;
    },
  });
}

export function useDeliveries(slug: string, query: DeliveryQuery, enabled: boolean) {
  return useQuery({
    queryKey: webhookKeys.deliveries(slug, query),
    enabled,
    placeholderData: keepPreviousData,
    queryFn: async () => {
      const r = await api.GET('/admin/v1/businesses/{slug}/webhook/deliveries', {
        params: { path: { slug }, query: { limit: PAGE, ...query } },
      });
      return { deliveries: unwrap(r).deliveries, next: r.data?.meta.cursor };
    },
  });
}

function useWebhookWrite<A>(
  slug: string,
  fn: (a: A) => Promise<{ url: string; signingSecret?: string | undefined; createdAt: string; updatedAt: string }>,
) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => qc.invalidateQueries({ queryKey: webhookKeys.config(slug) }),
  });
}

export function useSaveWebhook(slug: string) {
  return useWebhookWrite(
    slug,
    async (url: string) =>
      unwrap(await api.PUT('/admin/v1/businesses/{slug}/webhook', { params: { path: { slug } }, body: { url } })).webhook,
  );
}

export function useRotateSecret(slug: string) {
  return useWebhookWrite(
    slug,
    async (_: undefined) =>
      unwrap(await api.POST('/admin/v1/businesses/{slug}/webhook/rotate-secret', { params: { path: { slug } } })).webhook,
  );
}

export function useDeleteWebhook(slug: string) {
  return useWebhookWrite(
    slug,
    async (_: undefined) => unwrap(await api.DELETE('/admin/v1/businesses/{slug}/webhook', { params: { path: { slug } } })).webhook,
  );
}

export function useRedeliver(slug: string) {
  const qc = useQueryClient();
  return useMutation({
    meta: { done: () => currentMessages().confirmations.sentAgain },
    mutationFn: async (deliveryId: string) =>
      unwrap(
        await api.POST('/admin/v1/businesses/{slug}/webhook/deliveries/{deliveryId}/redeliver', { params: { path: { slug, deliveryId } } }),
      ).delivery,
    onSuccess: () => qc.invalidateQueries({ queryKey: webhookKeys.deliveriesAll(slug) }),
  });
}

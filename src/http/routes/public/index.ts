import type { App } from '../../context.ts';
import { availabilityRoutes } from './availability.ts';
import { subscriptionRoutes } from './subscription.ts';
import { serviceListRoutes } from './services.ts';
import { staffListRoutes } from './staff.ts';
import { bookingReadRoutes } from './bookings-read.ts';
import { bookingCreateRoutes } from './bookings-create.ts';
import { bookingCancelRoutes } from './bookings-cancel.ts';
import { holdRoutes } from './holds.ts';
import { webhookConfigRoutes } from './webhooks-config.ts';
import { webhookDeliveryRoutes } from './webhooks-deliveries.ts';
import { webhookRedeliverRoutes } from './webhooks-redeliver.ts';

export async function publicRoutes(app: App): Promise<void> {
  await app.register(subscriptionRoutes);
  await app.register(availabilityRoutes);
  await app.register(serviceListRoutes);
  await app.register(staffListRoutes);
  await app.register(bookingCreateRoutes);
  await app.register(bookingReadRoutes);
  await app.register(bookingCancelRoutes);
  await app.register(holdRoutes);
  await app.register(webhookConfigRoutes);
  await app.register(webhookDeliveryRoutes);
  await app.register(webhookRedeliverRoutes);
}

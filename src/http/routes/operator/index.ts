import type { App } from '../../context.ts';
import { accountRoutes } from './account.ts';
import { availabilityRoutes } from './availability.ts';
import { operatorBookingRoutes } from './bookings.ts';
import { apiKeyRoutes } from './api-keys.ts';
import { businessRoutes } from './businesses.ts';
import { guestSettingsRoutes } from './guest-settings.ts';
import { invitationRoutes } from './invitations.ts';
import { locationRoutes } from './locations.ts';
import { memberRoutes } from './members.ts';
import { notificationRoutes } from './notifications.ts';
import { passwordResetRoutes } from './password-reset.ts';
import { resourceRoutes } from './resources.ts';
import { serviceRoutes } from './services.ts';
import { sessionRoutes } from './sessions.ts';
import { staffRoutes } from './staff.ts';
import { operatorWebhookRoutes } from './webhooks.ts';
import { waitlistRoutes } from './waitlist.ts';

export async function operatorRoutes(app: App): Promise<void> {
  await app.register(accountRoutes);
  await app.register(passwordResetRoutes);
  await app.register(businessRoutes);
  await app.register(apiKeyRoutes);
  await app.register(invitationRoutes);
  await app.register(memberRoutes);
  await app.register(locationRoutes);
  await app.register(resourceRoutes);
  await app.register(serviceRoutes);
  await app.register(staffRoutes);
  await app.register(sessionRoutes);
  await app.register(operatorBookingRoutes);
  await app.register(operatorWebhookRoutes);
  await app.register(guestSettingsRoutes);
  await app.register(notificationRoutes);
  await app.register(waitlistRoutes);
  await app.register(availabilityRoutes);
}

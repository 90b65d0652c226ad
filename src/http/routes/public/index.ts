import type { App } from '../../context.ts';
import { subscriptionRoutes } from './subscription.ts';

export async function publicRoutes(app: App): Promise<void> {
  await app.register(subscriptionRoutes);
}

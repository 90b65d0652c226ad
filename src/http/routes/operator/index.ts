import type { App } from '../../context.ts';
import { apiKeyRoutes } from './api-keys.ts';
import { businessRoutes } from './businesses.ts';

export async function operatorRoutes(app: App): Promise<void> {
  await app.register(businessRoutes);
  await app.register(apiKeyRoutes);
}

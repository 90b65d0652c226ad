import type { App } from '../../context.ts';
import { icalRoutes } from './ical.ts';
import { calendarFeedOperatorRoutes } from './operator.ts';

/** Calendar feeds: issuing them under the operator API, and the feed itself at `/ical`. */
export async function calendarFeedRoutes(app: App): Promise<void> {
  await app.register(calendarFeedOperatorRoutes, { prefix: '/admin/v1' });
  await app.register(icalRoutes);
}

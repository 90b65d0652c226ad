import { issueLocationFeed, issueStaffFeed } from '../../../use-cases/calendar-feeds/issue.ts';
import type { App } from '../../context.ts';
import { ok } from '../../envelope.ts';
import { CalendarFeedResult, calendarFeedExample } from '../../schemas/calendar-feed.ts';
import { responses } from '../../schemas/common.ts';
import { LocationParams } from '../../schemas/location.ts';
import { StaffParams } from '../../schemas/staff.ts';
import { OPERATOR_ERRORS, OPERATOR_SCHEMA, ROLES, operatorAccess } from '../operator/access.ts';

const ABOUT =
  'The feed is valid iCalendar (RFC 5545) for Google Calendar, Apple Calendar or Outlook to subscribe to: the bookings that hold time (requested, confirmed, a proposed new time) and those that took place, from 30 days back to the end of the booking horizon, as "guest name – service" with the status in the description, and time off as busy. It never carries a guest’s phone or email. Issuing a new feed ends the old one at once (its URL answers 404), which is how a leaked link is revoked. No body.';

/** Issuing calendar feeds (guest-side.md "Calendar feeds"): owners and managers, as staff and location writes. */
export async function calendarFeedOperatorRoutes(app: App): Promise<void> {
  app.post(
    '/staff/:staffId/calendar-feed',
    {
      config: operatorAccess(ROLES.managers, 'staffId'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorIssueStaffCalendarFeed',
        summary: 'A new secret calendar feed URL of one staff member’s appointments; ends the previous one',
        description: `The appointments of one staff member, wherever the booking holds their time. ${ABOUT}`,
        params: StaffParams,
        response: responses(200, CalendarFeedResult, [...OPERATOR_ERRORS, 'catalog.staff_not_found'], {
          description: 'The new feed URL, shown once.',
          example: calendarFeedExample,
        }),
      },
    },
    async (request) => ok(request, await issueStaffFeed(app.ctx.db, app.ctx.config.publicBaseUrl, request.params.staffId)),
  );

  app.post(
    '/businesses/:slug/locations/:locationSlug/calendar-feed',
    {
      config: operatorAccess(ROLES.managers, 'slug'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorIssueLocationCalendarFeed',
        summary: 'A new secret calendar feed URL of every appointment at a location; ends the previous one',
        description: `Every appointment at one location, of all its staff; time off is named with the staff member. ${ABOUT}`,
        params: LocationParams,
        response: responses(200, CalendarFeedResult, [...OPERATOR_ERRORS, 'request.not_found'], {
          description: 'The new feed URL, shown once.',
          example: calendarFeedExample,
        }),
      },
    },
    async (request) =>
      ok(request, await issueLocationFeed(app.ctx.db, app.ctx.config.publicBaseUrl, request.params.slug, request.params.locationSlug)),
  );
}

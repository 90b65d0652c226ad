import foundation from './001-foundation.ts';
import bookings from './002-bookings.ts';
import groupSessionsHoldStaff from './003-group-sessions-hold-staff.ts';
import bookingQuotaShards from './004-booking-quota-shards.ts';
import dropDuplicateStaffIndex from './005-drop-duplicate-staff-index.ts';
import bookingEventReason from './006-booking-event-reason.ts';
import apiKeyLastUsed from './007-api-key-last-used.ts';
import membersSessions from './008-members-sessions.ts';
import depositStatus from './009-deposit-status.ts';
import redeliveryAttempts from './010-redelivery-attempts.ts';
import businessVersions from './011-business-versions.ts';
import occupancyVersions from './012-occupancy-versions.ts';
import passwordResets from './013-password-resets.ts';
import guestSettings from './014-guest-settings.ts';
import depositAmounts from './015-deposit-amounts.ts';
import bookingSource from './016-booking-source.ts';
import holds from './017-holds.ts';
import jobs from './018-jobs.ts';
import calendarFeeds from './019-calendar-feeds.ts';
import guestMessages from './020-guest-messages.ts';
import waitlist from './021-waitlist.ts';
import staffAssignment from './022-staff-assignment.ts';
import occupancy from './023-occupancy.ts';
import resources from './024-resources.ts';
import bookingPrice from './025-booking-price.ts';
import resourceUnits from './026-resource-units.ts';
import quotaVersion from './029-quota-version.ts';
import staffVariants from './030-staff-variants.ts';
import visits from './031-visits.ts';
import memberLanguage from './032-member-language.ts';
import clients from './033-clients.ts';
import auditLog from './034-audit-log.ts';

/** Forward-only, in order; a migration's name never changes once released. */
export const MIGRATIONS: ReadonlyArray<{ name: string; sql: string }> = [
  { name: '001-foundation', sql: foundation },
  { name: '002-bookings', sql: bookings },
  { name: '003-group-sessions-hold-staff', sql: groupSessionsHoldStaff },
  { name: '004-booking-quota-shards', sql: bookingQuotaShards },
  { name: '005-drop-duplicate-staff-index', sql: dropDuplicateStaffIndex },
  { name: '006-booking-event-reason', sql: bookingEventReason },
  { name: '007-api-key-last-used', sql: apiKeyLastUsed },
  { name: '008-members-sessions', sql: membersSessions },
  { name: '009-deposit-status', sql: depositStatus },
  { name: '010-redelivery-attempts', sql: redeliveryAttempts },
  { name: '011-business-versions', sql: businessVersions },
  { name: '012-occupancy-versions', sql: occupancyVersions },
  { name: '013-password-resets', sql: passwordResets },
  { name: '014-guest-settings', sql: guestSettings },
  { name: '015-deposit-amounts', sql: depositAmounts },
  { name: '016-booking-source', sql: bookingSource },
  { name: '017-holds', sql: holds },
  { name: '018-jobs', sql: jobs },
  { name: '019-calendar-feeds', sql: calendarFeeds },
  { name: '020-guest-messages', sql: guestMessages },
  { name: '021-waitlist', sql: waitlist },
  { name: '022-staff-assignment', sql: staffAssignment },
  { name: '023-occupancy', sql: occupancy },
  { name: '024-resources', sql: resources },
  { name: '025-booking-price', sql: bookingPrice },
  { name: '026-resource-units', sql: resourceUnits },
  { name: '029-quota-version', sql: quotaVersion },
  { name: '030-staff-variants', sql: staffVariants },
  { name: '031-visits', sql: visits },
  { name: '032-member-language', sql: memberLanguage },
  { name: '033-clients', sql: clients },
  { name: '034-audit-log', sql: auditLog },
];

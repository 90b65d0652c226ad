import { BOOKING_SCHEMAS } from './booking.ts';
import { ENVELOPE_SCHEMAS } from './common.ts';
import { AvailabilitySlot, GroupSessionSlot } from './availability.ts';
import { Hold } from './hold.ts';

/** Registered once with addSchema, so the OpenAPI document has them as named components. */
export const SHARED_SCHEMAS = [...ENVELOPE_SCHEMAS, ...BOOKING_SCHEMAS, AvailabilitySlot, GroupSessionSlot, Hold];

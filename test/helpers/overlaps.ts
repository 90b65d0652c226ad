/**
 * "Never a double booking", checked from outside the exclusion constraint that promises it
 * (migration 002, then the occupancy rows of migration 023): the SQL is written here once for the tests, the benchmark and the soak.
 */

/**
 * The statuses that hold a staff member's time, written out rather than imported from the domain
 * so that the check does not share the definition it checks.
 */
export const OCCUPYING_STATUSES = ['requested', 'confirmed', 'rescheduleProposed'] as const;

export interface OverlapScope {
  /** only bookings of the business given as $1 */
  business?: boolean;
  /**
   * any two rows whatever their status or group session: stricter than the constraint, for runs
   * that only create bookings. Otherwise only the rows the constraint covers.
   */
  everyStatus?: boolean;
}

const STATUS_LIST = OCCUPYING_STATUSES.map((s) => `'${s}'`).join(', ');

/** The pairs (a, b, staff) of bookings of one staff member whose held times overlap. */
export function overlappingBookingsSql(scope: OverlapScope = {}): string {
  const where: string[] = [];
  if (scope.business) where.push('a.business_id = $1 AND b.business_id = $1');
  if (!scope.everyStatus) {
    for (const t of ['a', 'b']) where.push(`${t}.status IN (${STATUS_LIST}) AND ${t}.session_id IS NULL`);
  }
  // a booking takes its held range minus its processing parts (salon-scheduling.md "Processing time")
  return `SELECT a.id AS a, b.id AS b, a.occupied_staff_id AS staff
    FROM bookings a JOIN bookings b ON a.id < b.id AND a.occupied_staff_id = b.occupied_staff_id
     AND a.occupied && b.occupied
     AND (tstzmultirange(a.occupied) - a.processing) && (tstzmultirange(b.occupied) - b.processing)
    ${where.length > 0 ? `WHERE ${where.join('\n      AND ')}` : ''}`;
}

/** How many such pairs there are, as `n`. */
export function overlapCountSql(scope: OverlapScope = {}): string {
  return `SELECT count(*)::int AS n FROM (${overlappingBookingsSql(scope)}) AS pairs`;
}

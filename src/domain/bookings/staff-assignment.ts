/**
 * Who gets a booking or hold asked for without a staff member (salon-scheduling.md, "Who gets an
 * any staff booking"): the free staff members in the order they are tried. A clash in the database
 * moves on to the next one, so the order only chooses among those still free.
 */
import { compareDisplayOrder } from '../display-order.ts';

export { compareDisplayOrder };

export type StaffAssignment = 'ordered' | 'balanced';

export interface AssignableStaff {
  id: string;
  name: string;
  /** the staff field `position`; unset ones come after every set one */
  position: number | null;
}

/**
 * `ordered`: display order. `balanced`: the fewest booked minutes that local day first (a staff
 * member missing from `bookedMinutes` has none), ties in display order.
 */
export function staffInTryOrder<T extends AssignableStaff>(
  free: readonly T[],
  policy: StaffAssignment,
  bookedMinutes: ReadonlyMap<string, number> = new Map(),
): T[] {
  const minutes = (s: T) => bookedMinutes.get(s.id) ?? 0;
  return [...free].sort((a, b) => (policy === 'balanced' ? minutes(a) - minutes(b) : 0) || compareDisplayOrder(a, b));
}

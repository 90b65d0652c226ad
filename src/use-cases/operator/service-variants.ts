import { type Money, moneyToMinor, type PriceType } from '../../domain/catalog.ts';
import { AppError, invalidField } from '../../domain/errors.ts';
import type { Segment } from '../../domain/scheduling/segments.ts';
import { type StaffVariant, staffVariantsProblem } from '../../domain/scheduling/staff-variants.ts';
import type { Queryable } from '../../store/db.ts';
import { findStaffIdsAtLocation } from '../../store/staff.ts';

/** A variant as the operator API takes it: the price as money, the rest as stored. */
export interface StaffVariantInput {
  staffId: string;
  durationMinutes?: number;
  price?: Money;
  segments?: Segment[];
}

const FIELD = 'body.staffVariants';

/** The given variants in stored form: prices in minor units of the business currency, nothing else kept. */
export function variantsFromInput(input: readonly StaffVariantInput[], currency: string, priceType: PriceType): StaffVariant[] {
  return input.map((v, i) => {
    const out: StaffVariant = { staffId: v.staffId };
    if (v.durationMinutes !== undefined) out.durationMinutes = v.durationMinutes;
    if (v.price !== undefined) {
      // a negotiable service has no price to vary
      if (priceType === 'negotiable') throw invalidField(`${FIELD}.${i}.price`, 'must be left out for a negotiable price');
      out.priceMinor = moneyToMinor(v.price, currency, `${FIELD}.${i}.price`);
    }
    if (v.segments !== undefined) out.segments = v.segments.map(({ kind, minutes }) => ({ kind, minutes }));
    return out;
  });
}

/**
 * The variants against the service as it will be (its duration, segments and price type), the
 * problem beside its field. `fieldOf`: where the problem is reported when the variants themselves
 * were not in the request (a PATCH of the duration that no longer fits a stored variant).
 */
export function checkVariantsFit(
  variants: readonly StaffVariant[],
  service: { durationMinutes: number; segments: readonly Segment[] | null; priceType: PriceType },
  fieldOf: string = FIELD,
): void {
  const found = staffVariantsProblem(variants, service);
  if (found) {
    const path = fieldOf === FIELD ? `${FIELD}.${found.index}.${found.field}` : fieldOf;
    throw invalidField(path, fieldOf === FIELD ? found.problem : `does not fit staffVariants.${found.index}: ${found.problem}`);
  }
  if (service.priceType === 'negotiable') {
    const priced = variants.findIndex((v) => v.priceMinor !== undefined);
    if (priced >= 0) {
      throw invalidField(
        fieldOf === FIELD ? `${FIELD}.${priced}.price` : fieldOf,
        'a negotiable service has no price to vary by staff member',
      );
    }
  }
}

/**
 * Every variant names a staff member of the service's location (active or not, so that an
 * unrelated edit need not drop a variant of someone away for a while): else 404
 * catalog.staff_not_found with `details.staffIds`. Whether they perform the service is not asked:
 * a new service has no staff yet, and a variant of someone who does not perform it is never used.
 */
export async function checkVariantStaff(
  q: Queryable,
  location: { locationId: string; locationSlug: string },
  variants: readonly StaffVariant[],
): Promise<void> {
  const ids = variants.map((v) => v.staffId);
  const found = new Set(await findStaffIdsAtLocation(q, location.locationId, ids));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length > 0) {
    throw new AppError('catalog.staff_not_found', `Not staff members of location "${location.locationSlug}": ${missing.join(', ')}.`, {
      staffIds: missing,
    });
  }
}

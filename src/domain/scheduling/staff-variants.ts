/**
 * Stylist variants (salon-scheduling.md "Stylist variants"): per staff member a service may last,
 * cost and process differently. This module is the one place that says what a service is for one
 * staff member; the engine, explain, holds, creates, moves and the price snapshot all ask it.
 */
import { type Segment, segmentsProblem } from './segments.ts';

/** One staff member's differences; a field left out is the service's. `priceMinor` in the business currency's minor units. */
export interface StaffVariant {
  staffId: string;
  durationMinutes?: number;
  priceMinor?: number;
  segments?: Segment[];
}

/** What a variant can change of a service. */
export interface VariantTarget {
  durationMinutes: number;
  priceMinor: number | null;
  segments: readonly Segment[] | null;
  staffVariants: readonly StaffVariant[];
}

export const MAX_STAFF_VARIANTS = 50;

export function variantOf(service: Pick<VariantTarget, 'staffVariants'>, staffId: string | null | undefined): StaffVariant | undefined {
  if (staffId === null || staffId === undefined) return undefined;
  return service.staffVariants.find((v) => v.staffId === staffId);
}

/**
 * The segments of a variant: its own; else the service's when it lasts as long (processing kept);
 * else one work segment. Validation (staffVariantsProblem) refuses the last case for a service with
 * processing, so it only happens for a service without.
 */
function variantSegments(service: Pick<VariantTarget, 'durationMinutes' | 'segments'>, v: StaffVariant): Segment[] | null {
  if (v.segments) return v.segments;
  if (v.durationMinutes === undefined || v.durationMinutes === service.durationMinutes)
    return service.segments ? [...service.segments] : null;
  return null;
}

/** The service as `staffId` performs it: duration, price and segments from their variant, else the service's own. */
export function forStaff<S extends VariantTarget>(service: S, staffId: string | null | undefined): S {
  const v = variantOf(service, staffId);
  if (!v) return service;
  return {
    ...service,
    durationMinutes: v.durationMinutes ?? service.durationMinutes,
    priceMinor: v.priceMinor ?? service.priceMinor,
    segments: variantSegments(service, v),
  };
}

/**
 * The engine's per-staff override: the duration and segments `staffId` works to, or undefined when
 * they are the service's (no variant, or one that changes only the price), so the common case costs nothing.
 */
export function shapeOverride(
  service: Omit<VariantTarget, 'priceMinor'>,
  staffId: string,
): { durationMinutes: number; segments: readonly Segment[] | null } | undefined {
  const v = variantOf(service, staffId);
  if (!v || (v.durationMinutes === undefined && v.segments === undefined)) return undefined;
  return { durationMinutes: v.durationMinutes ?? service.durationMinutes, segments: variantSegments(service, v) };
}

/** The longest any staff member takes: what a search window must reach past a day's end. */
export function longestDurationMinutes(service: Pick<VariantTarget, 'durationMinutes' | 'staffVariants'>): number {
  let longest = service.durationMinutes;
  for (const v of service.staffVariants) if (v.durationMinutes !== undefined && v.durationMinutes > longest) longest = v.durationMinutes;
  return longest;
}

/**
 * Why a list of variants does not fit the service, as `{ index, field, problem }` for the field
 * `staffVariants[index].field` (null when it fits): one variant per staff member, and each
 * variant's segments add up to its duration (domain/scheduling/segments.ts). A variant that changes
 * the duration of a service with processing time gives its own segments: where the processing falls
 * in a longer or shorter colour is not ours to guess. Which staff exist is the use case's question.
 */
export function staffVariantsProblem(
  variants: readonly StaffVariant[],
  service: Pick<VariantTarget, 'durationMinutes' | 'segments'>,
): { index: number; field: string; problem: string } | null {
  const seen = new Set<string>();
  for (const [index, v] of variants.entries()) {
    if (seen.has(v.staffId)) return { index, field: 'staffId', problem: 'is listed twice; give each staff member one variant' };
    seen.add(v.staffId);
    const duration = v.durationMinutes ?? service.durationMinutes;
    if (!Number.isInteger(duration) || duration < 1)
      return { index, field: 'durationMinutes', problem: 'must be a whole number of minutes, at least 1' };
    if (v.segments) {
      const problem = segmentsProblem(v.segments, duration);
      if (problem) return { index, field: 'segments', problem };
    } else if (duration !== service.durationMinutes && service.segments && service.segments.length > 1) {
      return {
        index,
        field: 'segments',
        problem: `are required: the service has processing time and this variant lasts ${duration} minutes, not ${service.durationMinutes}`,
      };
    }
  }
  return null;
}

/** The variants in a fixed order and shape, for pricingVersion: empty when there are none. */
export function variantsKey(variants: readonly StaffVariant[]): string {
  return [...variants]
    .sort((a, b) => (a.staffId < b.staffId ? -1 : a.staffId > b.staffId ? 1 : 0))
    .map(
      (v) =>
        `${v.staffId}:${v.durationMinutes ?? ''}:${v.priceMinor ?? ''}:${(v.segments ?? []).map((s) => `${s.kind[0]}${s.minutes}`).join('.')}`,
    )
    .join(';');
}

/** The engine's and explain's staff, each with their variant's shape when it differs (`serviceOverride`). */
export function withServiceOverrides<T extends { id: string }>(
  staff: T[],
  service: Omit<VariantTarget, 'priceMinor'>,
): Array<T & { serviceOverride?: { durationMinutes: number; segments: readonly Segment[] | null } }> {
  if (service.staffVariants.length === 0) return staff;
  return staff.map((s) => {
    const serviceOverride = shapeOverride(service, s.id);
    return serviceOverride ? { ...s, serviceOverride } : s;
  });
}

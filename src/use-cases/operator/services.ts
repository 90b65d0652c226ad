import {
  checkPriceRule,
  moneyToMinor,
  NO_DEPOSIT,
  resolveDeposit,
  type AcceptancePolicy,
  type BookingMode,
  type DepositInput,
  type Money,
  type PriceType,
} from '../../domain/catalog.ts';
import type { ServiceRecord } from '../../domain/catalog-records.ts';
import { checkDepositHasAmount } from '../../domain/deposits/amount.ts';
import { AppError, invalidField } from '../../domain/errors.ts';
import { newId } from '../../domain/ids.ts';
import {
  byNameThenId,
  depositView,
  moneyView,
  segmentsView,
  staffVariantsView,
  type DepositView,
  type StaffVariantView,
} from '../../domain/catalog-view.ts';
import { variantsKey } from '../../domain/scheduling/staff-variants.ts';
import { checkVariantStaff, checkVariantsFit, type StaffVariantInput, variantsFromInput } from './service-variants.ts';
import { type Segment, segmentsProblem } from '../../domain/scheduling/segments.ts';
import { pricingVersion } from '../../domain/money.ts';
import type { Db, Queryable } from '../../store/db.ts';
import {
  findServiceById,
  insertService,
  listServices as listServiceRecords,
  updateService,
  type ServiceFields,
} from '../../store/services.ts';
import { requireBusiness } from './businesses.ts';
import { listServiceResourceIdsOf, replaceServiceResources } from '../../store/resources.ts';
import { requireLocation } from './locations.ts';
import { enforcePlanLimit } from './plan-limits.ts';
import { checkServiceResources } from './resources.ts';

export interface ServiceInput {
  locationSlug: string;
  name: string;
  durationMinutes: number;
  priceType: PriceType;
  price: Money | null;
  description?: string;
  requestAcceptancePolicy: AcceptancePolicy;
  onlineBookable?: boolean;
  active?: boolean;
  onSite?: boolean;
  bookingMode?: BookingMode;
  bufferBeforeMinutes?: number;
  bufferAfterMinutes?: number;
  deposit?: DepositInput;
  segments?: Segment[];
  /** the resources each booking needs one unit of; a given list replaces the stored one */
  resourceIds?: string[];
  /** per-staff duration, price and segments; a given list replaces the stored one */
  staffVariants?: StaffVariantInput[];
}

/** Every field optional; `description: null` and `segments: null` clear them. */
export type ServicePatch = Partial<Omit<ServiceInput, 'description' | 'segments'>> & {
  description?: string | null;
  segments?: Segment[] | null;
};

export interface ServiceView {
  id: string;
  locationId: string;
  locationSlug: string;
  name: string;
  description: string | null;
  durationMinutes: number;
  priceType: PriceType;
  price: Money | null;
  pricingVersion: string;
  requestAcceptancePolicy: AcceptancePolicy;
  onlineBookable: boolean;
  active: boolean;
  onSite: boolean;
  bookingMode: BookingMode;
  bufferBeforeMinutes: number;
  bufferAfterMinutes: number;
  segments: Segment[];
  deposit: DepositView;
  /** sorted by id */
  resourceIds: string[];
  staffVariants: StaffVariantView[];
  createdAt: string;
  updatedAt: string;
}

export function serviceView(s: ServiceRecord, resourceIds: string[]): ServiceView {
  return {
    id: s.id,
    locationId: s.locationId,
    locationSlug: s.locationSlug,
    name: s.name,
    description: s.description,
    durationMinutes: s.durationMinutes,
    priceType: s.priceType,
    price: moneyView(s.priceMinor, s.currency),
    pricingVersion: s.pricingVersion,
    requestAcceptancePolicy: s.requestAcceptancePolicy,
    onlineBookable: s.onlineBookable,
    active: s.active,
    onSite: s.onSite,
    bookingMode: s.bookingMode,
    bufferBeforeMinutes: s.bufferBeforeMinutes,
    bufferAfterMinutes: s.bufferAfterMinutes,
    segments: segmentsView(s),
    deposit: depositView(s),
    resourceIds,
    staffVariants: staffVariantsView(s),
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
}

/**
 * Segments as stored: null for none or for a lone work segment (the same service), else checked
 * against the duration (domain/scheduling/segments.ts), the problem named on `field`.
 */
function checkedSegments(segments: Segment[] | null, durationMinutes: number, field: string): Segment[] | null {
  if (segments === null || (segments.length === 1 && segments[0]!.kind === 'work' && segments[0]!.minutes === durationMinutes)) {
    return null;
  }
  const problem = segmentsProblem(segments, durationMinutes);
  if (problem) throw invalidField(field, problem);
  return segments.map(({ kind, minutes }) => ({ kind, minutes }));
}

export async function requireService(q: Queryable, serviceId: string): Promise<ServiceRecord> {
  const s = await findServiceById(q, serviceId);
  if (!s) throw new AppError('catalog.service_not_found', `No service with id "${serviceId}".`);
  return s;
}

export async function createService(db: Db, businessSlug: string, input: ServiceInput): Promise<ServiceView> {
  return db.transaction(async (tx) => {
    const b = await requireBusiness(tx, businessSlug);
    const location = await requireLocation(tx, b.id, input.locationSlug);
    const priceMinor = input.price === null ? null : moneyToMinor(input.price, b.currency, 'body.price');
    checkPriceRule(input.priceType, priceMinor, 'body.price');
    const deposit = input.deposit === undefined ? NO_DEPOSIT : resolveDeposit(input.deposit, b.currency, 'body.deposit');
    checkDepositHasAmount(
      deposit.required,
      { depositAmountMinor: deposit.amountMinor, priceType: input.priceType, priceMinor },
      'body.deposit.amount',
    );
    const active = input.active ?? true;
    if (active) await enforcePlanLimit(tx, b.id, 'maxActiveServices');
    const resourceIds = input.resourceIds ?? [];
    await checkServiceResources(tx, { locationId: location.id, locationSlug: location.slug }, resourceIds);
    const staffVariants = variantsFromInput(input.staffVariants ?? [], b.currency, input.priceType);
    const segments = checkedSegments(input.segments ?? null, input.durationMinutes, 'body.segments');
    checkVariantsFit(staffVariants, { durationMinutes: input.durationMinutes, segments, priceType: input.priceType });
    await checkVariantStaff(tx, { locationId: location.id, locationSlug: location.slug }, staffVariants);
    const id = newId('svc');
    await insertService(tx, {
      id,
      businessId: b.id,
      locationId: location.id,
      name: input.name,
      description: input.description ?? null,
      durationMinutes: input.durationMinutes,
      priceType: input.priceType,
      priceMinor,
      requestAcceptancePolicy: input.requestAcceptancePolicy,
      onlineBookable: input.onlineBookable ?? true,
      active,
      onSite: input.onSite ?? false,
      bookingMode: input.bookingMode ?? 'standard',
      bufferBeforeMinutes: input.bufferBeforeMinutes ?? 0,
      bufferAfterMinutes: input.bufferAfterMinutes ?? 0,
      segments,
      staffVariants,
      depositRequired: deposit.required,
      depositTermsVersion: deposit.termsVersion,
      depositAmountMinor: deposit.amountMinor,
      pricingVersion: pricingVersion(input.priceType, priceMinor, input.durationMinutes, variantsKey(staffVariants)),
    });
    await replaceServiceResources(tx, id, resourceIds);
    return loadServiceView(tx, id);
  });
}

export async function patchService(db: Db, serviceId: string, patch: ServicePatch): Promise<ServiceView> {
  return db.transaction(async (tx) => {
    const current = await requireService(tx, serviceId);
    if (patch.locationSlug !== undefined && patch.locationSlug !== current.locationSlug) {
      throw invalidField('body.locationSlug', 'cannot be changed; create the service at the other location');
    }
    const { locationSlug: _location, price, deposit, resourceIds, staffVariants: variantsInput, ...plain } = patch;
    if (resourceIds !== undefined) await checkServiceResources(tx, current, resourceIds);
    const fields: Partial<ServiceFields> = { ...plain };

    if (price !== undefined) fields.priceMinor = price === null ? null : moneyToMinor(price, current.currency, 'body.price');
    // Only a patch that touches the price is held to the price rule, so an unrelated edit of a
    // row that breaks it (kept out of the listing) is still possible.
    const priceType = patch.priceType ?? current.priceType;
    const priceMinor = fields.priceMinor !== undefined ? fields.priceMinor : current.priceMinor;
    if (patch.priceType !== undefined || price !== undefined) checkPriceRule(priceType, priceMinor, 'body.price');

    const durationMinutes = patch.durationMinutes ?? current.durationMinutes;
    if (patch.segments !== undefined || patch.durationMinutes !== undefined) {
      const segments = patch.segments !== undefined ? patch.segments : current.segments;
      fields.segments = checkedSegments(segments, durationMinutes, patch.segments !== undefined ? 'body.segments' : 'body.durationMinutes');
    }
    const staffVariants =
      variantsInput !== undefined ? variantsFromInput(variantsInput, current.currency, priceType) : current.staffVariants;
    if (variantsInput !== undefined) fields.staffVariants = staffVariants;
    // Stored variants are checked again when what they depend on changes, the problem named on
    // that field; so no PATCH leaves a variant whose segments no longer add up.
    const dependsOn = variantsInput !== undefined ? undefined : changedDependency(patch);
    if (variantsInput !== undefined || (dependsOn !== undefined && staffVariants.length > 0)) {
      const segments = fields.segments !== undefined ? fields.segments : current.segments;
      checkVariantsFit(staffVariants, { durationMinutes, segments, priceType }, dependsOn);
    }
    if (variantsInput !== undefined && staffVariants.length > 0) {
      await checkVariantStaff(tx, { locationId: current.locationId, locationSlug: current.locationSlug }, staffVariants);
    }
    const key = variantsKey(staffVariants);
    if (
      priceType !== current.priceType ||
      priceMinor !== current.priceMinor ||
      durationMinutes !== current.durationMinutes ||
      key !== variantsKey(current.staffVariants)
    ) {
      fields.pricingVersion = pricingVersion(priceType, priceMinor, durationMinutes, key);
    }

    if (deposit !== undefined) {
      const d = resolveDeposit(deposit, current.currency, 'body.deposit');
      fields.depositRequired = d.required;
      fields.depositTermsVersion = d.termsVersion;
      fields.depositAmountMinor = d.amountMinor;
    }

    // Checked on every patch, not only one touching the deposit or the price: migration 015 left
    // no deposit service without a sum to take, so only this patch could make one.
    const depositRequired = fields.depositRequired ?? current.depositRequired;
    const depositAmountMinor = fields.depositAmountMinor !== undefined ? fields.depositAmountMinor : current.depositAmountMinor;
    checkDepositHasAmount(
      depositRequired,
      { depositAmountMinor, priceType, priceMinor },
      deposit !== undefined
        ? 'body.deposit.amount'
        : patch.priceType !== undefined && price === undefined
          ? 'body.priceType'
          : 'body.price',
    );

    if (patch.active === true && !current.active) await enforcePlanLimit(tx, current.businessId, 'maxActiveServices');
    await updateService(tx, current.id, fields);
    if (resourceIds !== undefined) await replaceServiceResources(tx, current.id, resourceIds);
    return loadServiceView(tx, current.id);
  });
}

/** The field of a PATCH that stored variants depend on, when it changes one (the first in body order). */
function changedDependency(patch: ServicePatch): string | undefined {
  if (patch.durationMinutes !== undefined) return 'body.durationMinutes';
  if (patch.segments !== undefined) return 'body.segments';
  if (patch.priceType !== undefined) return 'body.priceType';
  return undefined;
}

/** Every service, inactive and not-online-bookable ones too, by name then id; `locationSlug` filters. */
export async function listServices(db: Db, businessSlug: string, locationSlug?: string): Promise<ServiceView[]> {
  return db.transaction(async (tx) => {
    const b = await requireBusiness(tx, businessSlug);
    const location = locationSlug === undefined ? undefined : await requireLocation(tx, b.id, locationSlug);
    const services = (await listServiceRecords(tx, b.id, location?.id)).sort(byNameThenId);
    const resources = await listServiceResourceIdsOf(
      tx,
      services.map((s) => s.id),
    );
    return services.map((s) => serviceView(s, resources.get(s.id)!));
  });
}

export async function getService(db: Db, serviceId: string): Promise<ServiceView> {
  return db.transaction((tx) => loadServiceView(tx, serviceId));
}

async function loadServiceView(q: Queryable, serviceId: string): Promise<ServiceView> {
  const s = await requireService(q, serviceId);
  return serviceView(s, (await listServiceResourceIdsOf(q, [s.id])).get(s.id)!);
}

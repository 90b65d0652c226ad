import type { ServiceRecord } from '../catalog-records.ts';
import { AppError, invalidField } from '../errors.ts';
import { normalizeGuest, type Guest, type GuestInput } from './guest.ts';

export interface CreateBookingBody {
  salonSlug: string;
  locationSlug: string;
  serviceId: string;
  expectedPricingVersion?: string | undefined;
  staffId?: string | undefined;
  slot?: { date: string; startTime: string } | undefined;
  sessionId?: string | undefined;
  slotToken?: string | undefined;
  /** a live hold of this business for the same service, staff member (if given) and slot */
  holdId?: string | undefined;
  guest: GuestInput;
  consent: { privacyNoticeVersion: string; termsVersion: string; locale: string; acceptedAt: string; policyConsentGiven: boolean };
  depositTermsAcceptance?: { termsVersion: string; acceptedAt: string } | undefined;
  note?: string | undefined;
  serviceLocation?: { address: string; note?: string | undefined } | undefined;
}

export interface CheckedInput {
  guest: Guest;
  note: string | null;
  serviceLocation: { address: string; note?: string } | null;
}

/**
 * The body rules that depend on the service, in a fixed order so the same body always fails the
 * same way: pricing, booking mode fields, on-site address, consent, deposit terms, guest.
 */
export function checkCreateInput(body: CreateBookingBody, service: ServiceRecord): CheckedInput {
  if (body.expectedPricingVersion !== undefined && body.expectedPricingVersion !== service.pricingVersion) {
    throw new AppError('booking.service_pricing_changed', undefined, { pricingVersion: service.pricingVersion });
  }
  if (service.bookingMode === 'groupSession') {
    if (body.sessionId === undefined) throw invalidField('body.sessionId', 'is required for a group-session service');
    if (body.slotToken === undefined) throw invalidField('body.slotToken', 'is required for a group-session service');
    if (body.slot !== undefined) throw invalidField('body.slot', 'is not used for a group-session service');
    if (body.staffId !== undefined) throw invalidField('body.staffId', 'is not used for a group-session service');
    if (body.holdId !== undefined) throw invalidField('body.holdId', 'is not used for a group-session service');
  } else {
    if (body.slot === undefined) throw invalidField('body.slot', 'is required');
    if (body.sessionId !== undefined) throw invalidField('body.sessionId', 'is only for group-session services');
    if (body.slotToken !== undefined) throw invalidField('body.slotToken', 'is only for group-session services');
  }
  if (service.onSite && body.serviceLocation === undefined) {
    throw invalidField('body.serviceLocation', 'is required for an on-site service');
  }
  if (!service.onSite && body.serviceLocation !== undefined) {
    throw invalidField('body.serviceLocation', 'is only for on-site services');
  }
  if (body.consent.policyConsentGiven !== true) {
    throw invalidField('body.consent.policyConsentGiven', 'must be true');
  }
  if (service.depositRequired) {
    if (body.depositTermsAcceptance === undefined) throw new AppError('booking.deposit_terms_required');
    if (body.depositTermsAcceptance.termsVersion !== service.depositTermsVersion) {
      throw new AppError('booking.deposit_terms_changed', undefined, { termsVersion: service.depositTermsVersion });
    }
  }
  const guest = normalizeGuest(body.guest);
  if (service.depositRequired && guest.email === null) {
    throw invalidField('body.guest.email', 'a valid email is required when the service takes a deposit');
  }
  const note = body.note?.trim() ? body.note : null;
  let serviceLocation: CheckedInput['serviceLocation'] = null;
  if (body.serviceLocation) {
    const address = body.serviceLocation.address.trim();
    if (address.length === 0) throw invalidField('body.serviceLocation.address', 'must not be blank');
    const n = body.serviceLocation.note?.trim();
    serviceLocation = n ? { address, note: n } : { address };
  }
  return { guest, note, serviceLocation };
}

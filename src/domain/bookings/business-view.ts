import { type BookingDeposit, type DepositView, toDepositView } from '../deposits/status.ts';
import type { Money } from '../catalog.ts';
import { type BookedPrice, bookedPriceView } from './price.ts';
import type { BookingRecord } from './record.ts';
import { MINUTE_MS } from '../time/calendar.ts';
import { instantToLocal } from '../time/wall-clock.ts';
import type { SourceKind } from './source.ts';
import { type BookingView, toBookingView } from './view.ts';

/** What only the business may read of its guest: the salon must be able to call them. */
export interface GuestContact {
  phone: string;
  email: string | null;
}

/** The member who wrote a manual booking; name null when their account has none. */
export interface BookingAuthor {
  memberId: string;
  name: string | null;
}

/** What the operator reads beside the record: the contact, the reason of the latest change, the deposit, who booked, the price. */
export interface BusinessDetails extends GuestContact {
  reason: string | null;
  deposit: BookingDeposit | null;
  source: SourceKind;
  createdBy: BookingAuthor | null;
  /** the price the booking was made at; null when it was never recorded */
  price: BookedPrice | null;
  /** the client the booking belongs to (clients-and-reports.md) */
  clientId: string;
}

export interface BusinessBookingView extends BookingView {
  guest: { name: string; phone: string; email: string | null };
  /** the business's reason given with the change that led to the current state (decline, cancel) */
  reason: string | null;
  /** who made it: an API key, the booking page, or the business itself */
  source: SourceKind;
  /** the member who wrote a manual booking; null for every other booking and the platform operator's */
  createdBy: BookingAuthor | null;
  /** the client the booking belongs to; '' only for a row gone between the two reads */
  clientId: string;
  /** the price the booking was made at (bookedPrice), in major units; null without an amount */
  price: Money | null;
  /** deposit bookings only */
  deposit?: DepositView;
  /** the processing parts of the appointment, local times; empty without processing time */
  processing: Array<{ startTime: string; endTime: string }>;
  /** the resource units it occupies */
  resources: Array<{ resourceId: string; name: string; unit: number }>;
}

/**
 * The operator's shape: the public view plus the guest's contact. Built only from a contact read
 * on purpose (store/guest-contacts.ts), never from a BookingRecord alone, so nothing that builds
 * events, webhooks or public answers from records can reach phone or email.
 */
export function toBusinessBookingView(b: BookingRecord, d: BusinessDetails): BusinessBookingView {
  const view: BusinessBookingView = {
    ...toBookingView(b),
    guest: { name: b.guestName, phone: d.phone, email: d.email },
    reason: d.reason,
    source: d.source,
    createdBy: d.createdBy,
    clientId: d.clientId,
    processing: (b.processing ?? []).map((p) => ({
      startTime: instantToLocal(new Date(b.startAt.getTime() + p.fromMinute * MINUTE_MS), b.timezone).time,
      endTime: instantToLocal(new Date(b.startAt.getTime() + p.toMinute * MINUTE_MS), b.timezone).time,
    })),
    price: bookedPriceView(d.price),
    resources: b.resources ?? [],
  };
  if (d.deposit) view.deposit = toDepositView(d.deposit);
  return view;
}

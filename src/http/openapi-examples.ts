/**
 * The examples of the OpenAPI document: one small, consistent demo business (a salon in Budapest,
 * a haircut with Anna) from which the routes' request and response examples are made, so that ids
 * and times agree across operations. test/openapi.test.ts checks each against its schema.
 */

const LOCATION_ID = 'loc_3m8q2w6e9r4t7y1u5i0o';
const SERVICE_ID = 'svc_8f2k4m6p9q3r5t7v1w0x';
const RESOURCE_ID = 'res_3h5j7k9m2n4p6q8r0s1t';
const STAFF_ID = 'stf_2b4d6f8h1j3k5m7n9p0q';
const BOOKING_ID = 'bkg_5c7e9g2j4l6n8q1s3u0w';

export const IDS = { locationId: LOCATION_ID, serviceId: SERVICE_ID, staffId: STAFF_ID, bookingId: BOOKING_ID };

export const SALON = { salonSlug: 'demo-salon', locationSlug: 'downtown' };

export const serviceExample = {
  id: SERVICE_ID,
  name: "Women's haircut",
  durationMinutes: 60,
  priceType: 'fixed',
  pricingVersion: '4e1f9a07c2b3',
  price: { amount: 12000, currency: 'HUF' },
  description: 'Wash, cut and blow-dry.',
  requestAcceptancePolicy: 'manual',
  deposit: { required: false },
  segments: [{ kind: 'work', minutes: 60 }],
  staffVariants: [{ staffId: STAFF_ID, durationMinutes: 45, price: { amount: 15000, currency: 'HUF' } }],
};

export const staffMemberExample = {
  id: STAFF_ID,
  name: 'Anna Kovács',
  bio: 'Colourist and stylist, ten years in the trade.',
  avatarUrl: 'https://cdn.example.com/staff/anna.jpg',
};

const locationSnapshot = {
  id: LOCATION_ID,
  locationSlug: 'downtown',
  publicLocationName: 'Demo Salon Downtown',
  address: { city: 'Budapest', street: 'Király utca 12.', zip: '1061' },
  timezone: 'Europe/Budapest',
};

export const bookingExample = {
  bookingId: BOOKING_ID,
  publicReference: 'BK-7KQ3MX9P',
  status: 'requested',
  locationId: LOCATION_ID,
  locationSnapshot,
  serviceId: SERVICE_ID,
  serviceName: "Women's haircut",
  staffId: STAFF_ID,
  staffName: 'Anna Kovács',
  guestName: 'Eszter Nagy',
  requestedSlot: { date: '2026-12-01', startTime: '09:30', timezone: 'Europe/Budapest' },
  confirmedSlot: null,
  note: 'First visit.',
  createdAt: '2026-11-24T14:05:12.318Z',
  updatedAt: '2026-11-24T14:05:12.318Z',
  stateVersion: 1,
  acceptanceMode: 'manual',
};

const confirmedSlot = { date: '2026-12-01', startTime: '09:30', endTime: '10:30', timezone: 'Europe/Budapest' };

export const confirmedBookingExample = {
  ...bookingExample,
  status: 'confirmed',
  confirmedSlot,
  updatedAt: '2026-11-24T15:20:03.901Z',
  stateVersion: 2,
};

export const cancelledBookingExample = {
  ...bookingExample,
  status: 'cancelled',
  updatedAt: '2026-11-25T08:12:44.020Z',
  stateVersion: 2,
};

export const bookingEventExample = {
  event: 'booking.requested',
  deliveryId: '9f3c2a7e5b1d4c8fa6e0b2d4f6a8c1e3',
  timestamp: '2026-11-24T14:05:12.318Z',
  salonSlug: 'demo-salon',
  transition: { id: null, sequence: 1, occurredAt: '2026-11-24T14:05:12.318Z', from: null, to: 'requested' },
  booking: bookingExample,
};

export const subscriptionExample = {
  plan: 'pro',
  status: 'active',
  cancelAtPeriodEnd: false,
  currentPeriodEnd: '2026-12-31T23:00:00.000Z',
  bookingsThisMonth: 128,
  maxBookingsPerMonth: 1000,
  maxActiveServices: 50,
  maxStaffMembers: 20,
  maxLocations: 3,
  features: {
    smsNotifications: true,
    calendarSync: true,
    bookingPageBranding: true,
    depositCollection: true,
    analytics: false,
    apiAccess: true,
  },
};

export const availabilityExample = {
  slots: [
    { date: '2026-12-01', startTime: '09:30', endTime: '10:30', serviceId: SERVICE_ID, staffId: STAFF_ID },
    { date: '2026-12-01', startTime: '09:45', endTime: '10:45', serviceId: SERVICE_ID, staffId: STAFF_ID },
    { date: '2026-12-01', startTime: '14:00', endTime: '15:00', serviceId: SERVICE_ID, staffId: STAFF_ID },
  ],
  snapshotAt: '2026-11-24T14:03:55.120Z',
};

export const availabilitySearchExample = {
  ...SALON,
  serviceId: SERVICE_ID,
  dateRange: { from: '2026-12-01', to: '2026-12-07' },
};

export const explainExample = { ...SALON, serviceId: SERVICE_ID, date: '2026-12-01', startTime: '10:00' };

export const operatorExplainExample = { locationSlug: 'downtown', serviceId: SERVICE_ID, date: '2026-12-01', startTime: '10:00' };

const explanationBase = { bookable: false, date: '2026-12-01', startTime: '10:00', timezone: 'Europe/Budapest' };

export const explanationExample = {
  explanation: {
    ...explanationBase,
    staff: [
      { staffId: STAFF_ID, staffName: 'Anna Kovács', bookable: false, reasons: ['booked'] },
      { staffId: 'stf_7c9e1g3i5k7m9o1q3s5u', staffName: 'Bence Tóth', bookable: false, reasons: ['time_off'] },
    ],
  },
};

export const operatorExplanationExample = {
  explanation: {
    ...explanationBase,
    staff: [
      {
        staffId: STAFF_ID,
        staffName: 'Anna Kovács',
        bookable: false,
        reasons: ['booked'],
        bookingIds: ['bkg_5t7v9x1z3b5d7f9h1j3l'],
        holdIds: [],
      },
      { staffId: 'stf_7c9e1g3i5k7m9o1q3s5u', staffName: 'Bence Tóth', bookable: false, reasons: ['time_off'], bookingIds: [], holdIds: [] },
    ],
  },
};

export const createBookingExample = {
  ...SALON,
  serviceId: SERVICE_ID,
  expectedPricingVersion: '4e1f9a07c2b3',
  staffId: STAFF_ID,
  slot: { date: '2026-12-01', startTime: '09:30' },
  guest: { name: 'Eszter Nagy', phone: '+36301234567', email: 'eszter.nagy@example.com' },
  consent: {
    privacyNoticeVersion: '2026-01',
    termsVersion: '2026-01',
    locale: 'hu-HU',
    acceptedAt: '2026-11-24T14:05:10Z',
    policyConsentGiven: true,
  },
  note: 'First visit.',
};

export const webhookExample = {
  url: 'https://example.com/webhooks/booking',
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
};

export const webhookWithSecretExample = {
  ...webhookExample,
  signingSecret: '3f6a9c2e5b8d1f4a7c0e3b6d9f2a5c8e1b4d7f0a3c6e9b2d5f8a1c4e7b0d3f6a',
};

export const deliveryExample = {
  deliveryId: '9f3c2a7e5b1d4c8fa6e0b2d4f6a8c1e3',
  event: 'booking.requested',
  bookingId: BOOKING_ID,
  sequence: 1,
  status: 'succeeded',
  attemptCount: 2,
  lastAttemptAt: '2026-11-24T14:05:58.502Z',
  nextAttemptAt: null,
  outcome: 'success',
  statusCode: 200,
  attempts: [
    {
      attempt: 1,
      startedAt: '2026-11-24T14:05:13.004Z',
      durationMs: 8000,
      outcome: 'timeout',
      statusCode: null,
      error: 'no response within 8000 ms',
    },
    { attempt: 2, startedAt: '2026-11-24T14:05:58.502Z', durationMs: 184, outcome: 'success', statusCode: 200, error: null },
  ],
  createdAt: '2026-11-24T14:05:12.318Z',
};

/** A cursor as the server gives it: opaque, signed, bound to the filters. */
export const CURSOR_EXAMPLE = 'eyJrIjpbIjIwMjYtMTEtMjRUMTQ6MDU6MTIuMzE4WiIsImJrZ181YzdlIl19.Xq2Lr8vN0tYw';

// The operator API's views of the same business.

const USER_ID = 'usr_6d8f1h3k5m7p9r2t4v0x';

export const memberExample = {
  id: USER_ID,
  email: 'owner@demo-salon.example',
  name: 'Dóra Szabó',
  language: 'hu',
  memberships: [{ salonSlug: 'demo-salon', businessName: 'Demo Salon', role: 'owner' }],
};

export const memberListItemExample = {
  id: USER_ID,
  email: 'owner@demo-salon.example',
  name: 'Dóra Szabó',
  role: 'owner',
  createdAt: '2026-11-01T09:00:00.000Z',
};

export const businessExample = {
  id: 'biz_9a1c3e5g7j2l4n6q8s0u',
  slug: 'demo-salon',
  name: 'Demo Salon',
  currency: 'HUF',
  createdAt: '2026-11-01T09:00:00.000Z',
  clientRetentionMonths: null as number | null,
  subscription: subscriptionExample,
};

export const createBusinessExample = {
  slug: 'demo-salon',
  name: 'Demo Salon',
  currency: 'HUF',
  subscription: { plan: 'pro', status: 'active', currentPeriodEnd: '2026-12-31T23:00:00Z' },
};

export const patchSubscriptionExample = { plan: 'business', maxBookingsPerMonth: null, features: { analytics: true } };

const apiKeyBase = {
  id: 'key_1q3s5u7w9y2a4c6e8g0j',
  name: 'Website booking widget',
  type: 'integration',
  kind: 'owner',
  capabilities: ['services.read', 'staff.read', 'availability.read', 'booking.create', 'booking.read', 'booking.cancel'],
  tier: 'standard',
  prefix: 'bka_3kq8',
  expiresAt: null,
  revokedAt: null,
  createdAt: '2026-11-02T10:15:00.000Z',
  lastUsedAt: '2026-11-24T14:05:12.000Z',
};

export const apiKeyListItemExample = apiKeyBase;

export const createdApiKeyExample = {
  ...apiKeyBase,
  lastUsedAt: null,
  secret: 'bka_3kq8w2m7x9c4v6b1n5p0r8t3y7u2i6o1a4s9d3f8g2h',
};

export const revokedApiKeyExample = { ...apiKeyBase, revokedAt: '2026-11-25T08:00:00.000Z' };

export const createApiKeyExample = {
  name: 'Website booking widget',
  type: 'integration',
  kind: 'owner',
  capabilities: ['services.read', 'staff.read', 'availability.read', 'booking.create', 'booking.read', 'booking.cancel'],
};

const invitationBase = {
  id: 'inv_5t7v9x2z4b6d8f1h3k0m',
  email: 'reception@demo-salon.example',
  role: 'frontDesk',
  createdAt: '2026-11-24T16:00:00.000Z',
  expiresAt: '2026-12-01T16:00:00.000Z',
};

export const invitationExample = invitationBase;

export const createdInvitationExample = {
  ...invitationBase,
  acceptUrl: 'https://booking.example.com/dashboard/accept-invitation?token=q7Wm2xK9cV4bN1pR8tY3uE6iO0aS5dF2',
  mailSent: true,
};

export const withdrawnInvitationExample = { ...invitationBase, withdrawnAt: '2026-11-25T09:30:00.000Z' };

export const locationExample = {
  id: LOCATION_ID,
  slug: 'downtown',
  name: 'Downtown',
  publicLocationName: 'Demo Salon Downtown',
  timezone: 'Europe/Budapest',
  address: { city: 'Budapest', street: 'Király utca 12.', zip: '1061' },
  bookingEnabled: true,
  slotIntervalMinutes: 15,
  minNoticeMinutes: 60,
  horizonDays: 90,
  paymentInstructions: 'Transfer the deposit to OTP Bank 11773016-01234567 with your booking reference.',
  phone: '+36 1 234 5678',
  staffAssignment: 'ordered',
  createdAt: '2026-11-01T09:05:00.000Z',
  updatedAt: '2026-11-01T09:05:00.000Z',
};

export const createLocationExample = {
  slug: 'downtown',
  name: 'Downtown',
  publicLocationName: 'Demo Salon Downtown',
  timezone: 'Europe/Budapest',
  address: { city: 'Budapest', street: 'Király utca 12.', zip: '1061' },
  phone: '+36 1 234 5678',
};

export const operatorServiceExample = {
  id: SERVICE_ID,
  locationId: LOCATION_ID,
  locationSlug: 'downtown',
  name: "Women's haircut",
  description: 'Wash, cut and blow-dry.',
  durationMinutes: 60,
  priceType: 'fixed',
  price: { amount: 12000, currency: 'HUF' },
  pricingVersion: '4e1f9a07c2b3',
  requestAcceptancePolicy: 'manual',
  onlineBookable: true,
  active: true,
  onSite: false,
  bookingMode: 'standard',
  bufferBeforeMinutes: 0,
  bufferAfterMinutes: 10,
  segments: [{ kind: 'work', minutes: 60 }],
  deposit: { required: false },
  resourceIds: [RESOURCE_ID],
  staffVariants: [{ staffId: STAFF_ID, durationMinutes: 45, price: { amount: 15000, currency: 'HUF' } }],
  createdAt: '2026-11-01T09:10:00.000Z',
  updatedAt: '2026-11-01T09:10:00.000Z',
};

export const resourceExample = { id: RESOURCE_ID, locationSlug: 'downtown', name: 'Wash basin', quantity: 2, active: true };

export const createResourceExample = { locationSlug: 'downtown', name: 'Wash basin', quantity: 2 };

export const createServiceExample = {
  locationSlug: 'downtown',
  name: "Women's haircut",
  description: 'Wash, cut and blow-dry.',
  durationMinutes: 60,
  priceType: 'fixed',
  price: { amount: 12000, currency: 'HUF' },
  requestAcceptancePolicy: 'manual',
  bufferAfterMinutes: 10,
};

const workingHours = [1, 2, 3, 4, 5].map((weekday) => ({ weekday, start: '09:00', end: '17:00' }));

export const staffExample = {
  id: STAFF_ID,
  locationId: LOCATION_ID,
  locationSlug: 'downtown',
  name: 'Anna Kovács',
  bio: 'Colourist and stylist, ten years in the trade.',
  avatarUrl: 'https://cdn.example.com/staff/anna.jpg',
  active: true,
  position: 1,
  serviceIds: [SERVICE_ID],
  workingHours,
  createdAt: '2026-11-01T09:15:00.000Z',
  updatedAt: '2026-11-01T09:15:00.000Z',
};

export const createStaffExample = {
  locationSlug: 'downtown',
  name: 'Anna Kovács',
  serviceIds: [SERVICE_ID],
  workingHours,
  bio: 'Colourist and stylist, ten years in the trade.',
};

export const timeOffExample = {
  id: 'off_8w1y3a5c7e9g2j4l6n0q',
  staffId: STAFF_ID,
  from: { date: '2026-12-24', time: '00:00' },
  to: { date: '2026-12-27', time: '00:00' },
  timezone: 'Europe/Budapest',
  startAtUtc: '2026-12-23T23:00:00.000Z',
  endAtUtc: '2026-12-26T23:00:00.000Z',
  createdAt: '2026-11-20T12:00:00.000Z',
};

export const createTimeOffExample = { from: { date: '2026-12-24', time: '00:00' }, to: { date: '2026-12-27', time: '00:00' } };

export const sessionExample = {
  id: 'ses_2r4t6v8x1z3b5d7f9h0k',
  serviceId: 'svc_4g6j8l1n3q5s7u9w2y0a',
  staffId: STAFF_ID,
  startAtUtc: '2026-12-05T09:00:00.000Z',
  endAtUtc: '2026-12-05T10:30:00.000Z',
  capacityMax: 8,
  seatsTaken: 3,
  remainingSeats: 5,
  priceMinor: 450000,
  createdAt: '2026-11-20T12:30:00.000Z',
};

export const createSessionExample = {
  staffId: STAFF_ID,
  startAtUtc: '2026-12-05T09:00:00Z',
  endAtUtc: '2026-12-05T10:30:00Z',
  capacityMax: 8,
  priceMinor: 450000,
};

export const businessBookingExample = {
  ...bookingExample,
  guest: { name: 'Eszter Nagy', phone: '+36301234567', email: 'eszter.nagy@example.com' },
  reason: null,
  source: 'api',
  createdBy: null,
};

export const confirmedBusinessBookingExample = {
  ...businessBookingExample,
  ...confirmedBookingExample,
  guest: businessBookingExample.guest,
  reason: null,
};

export const manualBookingExample = {
  locationSlug: 'downtown',
  serviceId: SERVICE_ID,
  staffId: STAFF_ID,
  date: '2026-12-01',
  startTime: '11:00',
  guest: { name: 'Péter Tóth', phone: '+36209876543' },
  note: 'Walk-in, booked at the desk.',
};

export const manualBusinessBookingExample = {
  ...confirmedBusinessBookingExample,
  bookingId: 'bkg_7e9g2j4l6n8q1s3u5w0y',
  publicReference: 'BK-3NQ7TW4K',
  guestName: 'Péter Tóth',
  guest: { name: 'Péter Tóth', phone: '+36209876543', email: null },
  requestedSlot: { date: null, startTime: null, timezone: 'Europe/Budapest' },
  confirmedSlot: { date: '2026-12-01', startTime: '11:00', endTime: '12:00', timezone: 'Europe/Budapest' },
  note: 'Walk-in, booked at the desk.',
  stateVersion: 1,
  source: 'manual',
  createdBy: { memberId: USER_ID, name: 'Dóra Szabó' },
};

export const agendaExample = {
  date: '2026-12-01',
  location: { slug: 'downtown', timezone: 'Europe/Budapest' },
  staff: [
    {
      id: STAFF_ID,
      name: 'Anna Kovács',
      workingHours: [{ start: '09:00', end: '17:00' }],
      timeOff: [],
      bookings: [confirmedBusinessBookingExample],
    },
  ],
};

export const depositBookingExample = {
  ...confirmedBusinessBookingExample,
  deposit: {
    status: 'paid',
    amount: 5000,
    currency: 'HUF',
    dueAt: '2026-12-01T08:30:00.000Z',
    recordedAt: '2026-11-26T11:42:00.000Z',
  },
};

export const redeliveredExample = {
  ...deliveryExample,
  attemptCount: 3,
  lastAttemptAt: '2026-11-25T09:00:02.114Z',
  attempts: [
    ...deliveryExample.attempts,
    { attempt: 3, startedAt: '2026-11-25T09:00:02.114Z', durationMs: 142, outcome: 'success', statusCode: 200, error: null },
  ],
};

/** The bodies and answers of the operator's booking decisions, by action (routes/operator/bookings.ts). */
export type DecisionAction = 'accept' | 'decline' | 'propose' | 'acceptProposal' | 'reschedule' | 'complete' | 'noShow' | 'cancel';

export const DECISION_EXAMPLES: Record<DecisionAction, { body?: unknown; answer: unknown }> = {
  accept: { answer: confirmedBusinessBookingExample },
  decline: {
    body: { reason: 'Anna is away that morning.' },
    answer: { ...businessBookingExample, status: 'declined', reason: 'Anna is away that morning.', stateVersion: 2 },
  },
  propose: {
    body: { date: '2026-12-01', startTime: '14:00' },
    answer: {
      ...businessBookingExample,
      status: 'rescheduleProposed',
      proposedSlot: { date: '2026-12-01', startTime: '14:00', endTime: '15:00', timezone: 'Europe/Budapest', staffId: STAFF_ID },
      stateVersion: 2,
    },
  },
  acceptProposal: {
    answer: {
      ...confirmedBusinessBookingExample,
      confirmedSlot: { date: '2026-12-01', startTime: '14:00', endTime: '15:00', timezone: 'Europe/Budapest' },
      stateVersion: 3,
    },
  },
  reschedule: {
    body: { date: '2026-12-02', startTime: '10:00', staffId: STAFF_ID },
    answer: {
      ...confirmedBusinessBookingExample,
      confirmedSlot: { date: '2026-12-02', startTime: '10:00', endTime: '11:00', timezone: 'Europe/Budapest' },
      stateVersion: 3,
    },
  },
  complete: { answer: { ...confirmedBusinessBookingExample, status: 'completed', stateVersion: 3 } },
  noShow: { answer: { ...confirmedBusinessBookingExample, status: 'noShow', stateVersion: 3 } },
  cancel: {
    body: { reason: 'The salon is closed that day.' },
    answer: { ...businessBookingExample, status: 'cancelled', reason: 'The salon is closed that day.', stateVersion: 2 },
  },
};

export const patchGuestSettingsExample = {
  holdMinutes: 15,
  bookingPage: { introText: 'Book your next visit in a minute.', embedOrigins: ['https://www.demo-salon.example'] },
  notifications: { reminders: [{ minutesBefore: 1440 }, { minutesBefore: 120 }] },
};

/** The defaults of docs/guest-settings.md with patchGuestSettingsExample applied. */
export const guestSettingsExample = {
  bookingPage: {
    enabled: true,
    introText: 'Book your next visit in a minute.',
    accentColor: null,
    logoUrl: null,
    embedOrigins: ['https://www.demo-salon.example'],
    termsUrl: null,
    privacyUrl: null,
    termsVersion: '1',
    privacyNoticeVersion: '1',
  },
  holdMinutes: 15,
  guestCancel: { allowed: true, noticeMinutes: 1440 },
  guestReschedule: { allowed: true, noticeMinutes: 1440 },
  notifications: {
    guestEmail: 'all',
    reminders: [{ minutesBefore: 1440 }, { minutesBefore: 120 }],
    quietHours: { start: '21:00', end: '08:00' },
    sms: false,
    businessEmail: { newRequest: true, guestCancelled: true },
  },
  waitlist: { enabled: true, offerMinutes: 30 },
};

export const createHoldExample = {
  ...SALON,
  serviceId: SERVICE_ID,
  staffId: STAFF_ID,
  slot: { date: '2026-12-01', startTime: '09:30' },
};

export const holdExample = {
  holdId: 'hld_4TQ8ZC1M7RVK2XWN9BPD',
  expiresAt: '2026-11-24T14:15:10.000Z',
  serviceId: SERVICE_ID,
  staffId: STAFF_ID,
  slot: { date: '2026-12-01', startTime: '09:30', endTime: '10:30', timezone: 'Europe/Budapest' },
  status: 'active',
};

export const notificationExample = {
  id: 'msg_7k2m4p6r8t0v1x3z5b9d',
  bookingId: BOOKING_ID,
  kind: 'booking.reminder',
  channel: 'email',
  to: 'p***@example.com',
  status: 'sent',
  attempts: 1,
  lastError: null,
  scheduledAt: '2026-12-01T08:30:00.000Z',
  sentAt: '2026-12-01T08:30:02.114Z',
};

export const failedSmsNotificationExample = {
  id: 'msg_3c5e7g9j1l3n5q7s9u2w',
  bookingId: BOOKING_ID,
  kind: 'booking.confirmed',
  channel: 'sms',
  to: '+36 30 *** **67',
  status: 'failed',
  attempts: 6,
  lastError: 'gateway answered 422: number +36 30 *** **67 not reachable',
  scheduledAt: '2026-11-24T14:05:12.318Z',
  sentAt: null,
};

export const resentNotificationExample = {
  ...failedSmsNotificationExample,
  id: 'msg_8f0h2k4m6p8r0t2w4y6a',
  status: 'pending',
  attempts: 0,
  lastError: null,
  scheduledAt: '2026-11-25T09:12:40.005Z',
};

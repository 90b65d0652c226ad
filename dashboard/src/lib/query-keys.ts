/**
 * The query keys of every feature, one factory each: every query and every invalidation takes its
 * key from here, so a key is spelt once and a prefix (`agendaKeys.all`) reaches every key under it.
 * Here rather than in each feature folder because writes invalidate other features' reads (a
 * booking decision re-reads the calendar's day and the requests inbox), and a feature may not
 * import another (docs/dashboard.md, "Structure").
 */
export const sessionKeys = {
  all: ['session'] as const,
};

/** Mutations that sign in (or set a password): a 401 from them is a wrong password, not an ended session. */
export const SIGN_IN_MUTATION = ['sign-in'] as const;

export const catalogueKeys = {
  business: (slug: string) => ['business', slug] as const,
  locations: (slug: string) => ['locations', slug] as const,
  servicesAll: (slug: string) => ['services', slug] as const,
  services: (slug: string, locationSlug: string | undefined) => ['services', slug, locationSlug] as const,
  staffAll: (slug: string) => ['staff', slug] as const,
  staff: (slug: string, locationSlug: string | undefined) => ['staff', slug, locationSlug] as const,
  resourcesAll: (slug: string) => ['resources', slug] as const,
  resources: (slug: string, locationSlug: string | undefined) => ['resources', slug, locationSlug] as const,
  sessions: (serviceId: string) => ['sessions', serviceId] as const,
  timeOffAll: (staffId: string) => ['time-off', staffId] as const,
  timeOff: (staffId: string, from: string, to: string) => ['time-off', staffId, from, to] as const,
};

export const agendaKeys = {
  all: ['agenda'] as const,
  business: (slug: string) => ['agenda', slug] as const,
  day: (slug: string, locationSlug: string | undefined, date: string | undefined) => ['agenda', slug, locationSlug, date] as const,
};

export interface BookingFilters {
  status?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  locationSlug?: string | undefined;
  cursor?: string | undefined;
}

export const bookingKeys = {
  list: (slug: string, filters: BookingFilters) => ['bookings', slug, filters] as const,
  requestsAll: ['requests'] as const,
  requests: (slug: string) => ['requests', slug] as const,
  detail: (bookingId: string) => ['booking', bookingId] as const,
  events: (bookingId: string) => ['booking', bookingId, 'events'] as const,
  messages: (slug: string, bookingId: string) => ['booking', bookingId, 'messages', slug] as const,
};

export const waitlistKeys = {
  list: (slug: string, filters: { status?: string | undefined; cursor?: string | undefined }) => ['waitlist', slug, filters] as const,
};

export const clientKeys = {
  all: ['clients'] as const,
  list: (slug: string, filters: { q?: string | undefined; cursor?: string | undefined }) => ['clients', slug, filters] as const,
  detail: (clientId: string) => ['client', clientId] as const,
};

export const reportKeys = {
  report: (slug: string, filters: { from: string; to: string; locationSlug?: string | undefined }) => ['report', slug, filters] as const,
};

export const auditKeys = {
  list: (slug: string, filters: Record<string, string | undefined>) => ['audit-log', slug, filters] as const,
};

export const memberKeys = {
  members: (slug: string) => ['members', slug] as const,
  invitations: (slug: string) => ['invitations', slug] as const,
};

export const apiKeyKeys = {
  list: (slug: string) => ['api-keys', slug] as const,
};

export const webhookKeys = {
  config: (slug: string) => ['webhook', slug] as const,
  deliveriesAll: (slug: string) => ['webhook-deliveries', slug] as const,
  deliveries: (slug: string, query: object) => ['webhook-deliveries', slug, query] as const,
};

export const settingsKeys = {
  guest: (slug: string) => ['guest-settings', slug] as const,
};

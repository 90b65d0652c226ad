/** Sections of the main navigation; the link names are fixed by business-side.md. */
export const SECTIONS = [
  { path: 'calendar', name: 'Calendar' },
  { path: 'requests', name: 'Requests' },
  { path: 'bookings', name: 'Bookings' },
  { path: 'clients', name: 'Clients' },
  { path: 'waitlist', name: 'Waitlist' },
  { path: 'services', name: 'Services' },
  { path: 'staff', name: 'Staff' },
  { path: 'resources', name: 'Resources' },
  { path: 'locations', name: 'Locations' },
  { path: 'api-keys', name: 'API keys' },
  { path: 'webhooks', name: 'Webhooks' },
  { path: 'members', name: 'Members' },
  { path: 'settings', name: 'Settings' },
] as const;

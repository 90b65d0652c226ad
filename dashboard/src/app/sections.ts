/**
 * Sections of the main navigation; the link names are fixed by business-side.md (and
 * clients-and-reports.md). `roles`: only members of these roles see the link.
 */
export const SECTIONS: ReadonlyArray<{
  path:
    | 'calendar'
    | 'requests'
    | 'bookings'
    | 'clients'
    | 'waitlist'
    | 'services'
    | 'staff'
    | 'resources'
    | 'locations'
    | 'api-keys'
    | 'webhooks'
    | 'members'
    | 'settings'
    | 'reports'
    | 'audit-log';
  name: string;
  roles?: ReadonlyArray<'owner' | 'manager' | 'frontDesk'>;
}> = [
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
  { path: 'reports', name: 'Reports', roles: ['owner', 'manager'] },
  { path: 'audit-log', name: 'Audit log', roles: ['owner', 'manager'] },
];

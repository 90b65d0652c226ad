import type { ComponentType } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createBrowserRouter, Navigate, RouterProvider } from 'react-router';
import { RequireSession, SignInPage } from '../features/auth/SignInPage.tsx';
import { ForgotPasswordPage } from '../features/auth/ForgotPasswordPage.tsx';
import { ResetPasswordPage } from '../features/auth/ResetPasswordPage.tsx';
import { AppShell, FirstBusiness } from './AppShell.tsx';
import { AcceptInvitationPage } from '../features/invitations/AcceptInvitationPage.tsx';
import { RouteError } from '../components/RouteError.tsx';
import { queryClient } from './query-client.ts';

/** A route's page from its own chunk (React Router's `lazy`). */
function page<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) {
  return async () => ({ Component: (await load())[name] });
}

/**
 * Each page of the shell is its own chunk, loaded when first visited (issue 27: the first page stays
 * under 160 kB of gzipped JavaScript; test/dashboard-bundle.test.ts measures it). Sign-in and the
 * shell stay in the entry: every visit needs them.
 */
const router = createBrowserRouter(
  [
    {
      // A page that fails to render shows RouteError, not a blank screen; inside the shell, the
      // nearer boundary below keeps the navigation.
      errorElement: <RouteError />,
      children: [
        { path: '/sign-in', element: <SignInPage /> },
        { path: '/accept-invitation', element: <AcceptInvitationPage /> },
        { path: '/forgot-password', element: <ForgotPasswordPage /> },
        { path: '/reset-password', element: <ResetPasswordPage /> },
        {
          element: <RequireSession />,
          children: [
            { index: true, element: <FirstBusiness /> },
            {
              path: ':slug',
              element: <AppShell />,
              children: [
                {
                  errorElement: <RouteError />,
                  children: [
                    { index: true, element: <Navigate to="calendar" replace /> },
                    { path: 'calendar', lazy: page(() => import('../features/calendar/CalendarPage.tsx'), 'CalendarPage') },
                    {
                      path: 'bookings/:bookingId',
                      lazy: page(() => import('../features/bookings/BookingDetailPage.tsx'), 'BookingDetailPage'),
                    },
                    { path: 'requests', lazy: page(() => import('../features/bookings/RequestsPage.tsx'), 'RequestsPage') },
                    { path: 'bookings', lazy: page(() => import('../features/bookings/BookingsPage.tsx'), 'BookingsPage') },
                    { path: 'clients', lazy: page(() => import('../features/clients/ClientsPage.tsx'), 'ClientsPage') },
                    { path: 'clients/:clientId', lazy: page(() => import('../features/clients/ClientPage.tsx'), 'ClientPage') },
                    { path: 'reports', lazy: page(() => import('../features/reports/ReportsPage.tsx'), 'ReportsPage') },
                    { path: 'audit-log', lazy: page(() => import('../features/audit-log/AuditLogPage.tsx'), 'AuditLogPage') },
                    { path: 'waitlist', lazy: page(() => import('../features/waitlist/WaitlistPage.tsx'), 'WaitlistPage') },
                    { path: 'api-keys', lazy: page(() => import('../features/api-keys/ApiKeysPage.tsx'), 'ApiKeysPage') },
                    { path: 'locations', lazy: page(() => import('../features/locations/LocationsPage.tsx'), 'LocationsPage') },
                    { path: 'services', lazy: page(() => import('../features/services/ServicesPage.tsx'), 'ServicesPage') },
                    { path: 'staff', lazy: page(() => import('../features/staff/StaffPage.tsx'), 'StaffPage') },
                    { path: 'resources', lazy: page(() => import('../features/resources/ResourcesPage.tsx'), 'ResourcesPage') },
                    { path: 'webhooks', lazy: page(() => import('../features/webhooks/WebhooksPage.tsx'), 'WebhooksPage') },
                    { path: 'members', lazy: page(() => import('../features/members/MembersPage.tsx'), 'MembersPage') },
                    { path: 'settings', lazy: page(() => import('../features/settings/SettingsPage.tsx'), 'SettingsPage') },
                  ],
                },
              ],
            },
          ],
        },
        { path: '*', element: <Navigate to="/" replace /> },
      ],
    },
  ],
  { basename: '/dashboard' },
);

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
}

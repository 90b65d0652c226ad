import { QueryClientProvider } from '@tanstack/react-query';
import { createBrowserRouter, Navigate, RouterProvider } from 'react-router';
import { RequireSession, SignInPage } from '../features/auth/SignInPage.tsx';
import { ForgotPasswordPage } from '../features/auth/ForgotPasswordPage.tsx';
import { ResetPasswordPage } from '../features/auth/ResetPasswordPage.tsx';
import { ApiKeysPage } from '../features/api-keys/ApiKeysPage.tsx';
import { LocationsPage } from '../features/locations/LocationsPage.tsx';
import { ServicesPage } from '../features/services/ServicesPage.tsx';
import { StaffPage } from '../features/staff/StaffPage.tsx';
import { ResourcesPage } from '../features/resources/ResourcesPage.tsx';
import { BookingsPage } from '../features/bookings/BookingsPage.tsx';
import { BookingDetailPage } from '../features/bookings/BookingDetailPage.tsx';
import { RequestsPage } from '../features/bookings/RequestsPage.tsx';
import { WaitlistPage } from '../features/waitlist/WaitlistPage.tsx';
import { CalendarPage } from '../features/calendar/CalendarPage.tsx';
import { AppShell, FirstBusiness } from './AppShell.tsx';
import { WebhooksPage } from '../features/webhooks/WebhooksPage.tsx';
import { MembersPage } from '../features/members/MembersPage.tsx';
import { AcceptInvitationPage } from '../features/invitations/AcceptInvitationPage.tsx';
import { SettingsPage } from '../features/settings/SettingsPage.tsx';
import { RouteError } from '../components/RouteError.tsx';
import { queryClient } from './query-client.ts';

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
                    { path: 'calendar', element: <CalendarPage /> },
                    { path: 'bookings/:bookingId', element: <BookingDetailPage /> },
                    { path: 'requests', element: <RequestsPage /> },
                    { path: 'bookings', element: <BookingsPage /> },
                    { path: 'waitlist', element: <WaitlistPage /> },
                    { path: 'api-keys', element: <ApiKeysPage /> },
                    { path: 'locations', element: <LocationsPage /> },
                    { path: 'services', element: <ServicesPage /> },
                    { path: 'staff', element: <StaffPage /> },
                    { path: 'resources', element: <ResourcesPage /> },
                    { path: 'webhooks', element: <WebhooksPage /> },
                    { path: 'members', element: <MembersPage /> },
                    { path: 'settings', element: <SettingsPage /> },
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

import type { BusinessBookingView } from '../../domain/bookings/business-view.ts';
import type { ClientSummary } from '../../domain/clients/client.ts';

/** A client as the list shows it (clients-and-reports.md). */
export interface ClientListView {
  id: string;
  name: string;
  phone: string | null;
  email: string | null;
  visits: number;
  noShows: number;
  lastVisitAt: string | null;
  nextVisitAt: string | null;
  tags: string[];
}

/** A client as its own page shows it: the list's fields, the notes and the bookings, newest first. */
export interface ClientView extends ClientListView {
  notes: string;
  erased: boolean;
  bookings: BusinessBookingView[];
}

export function clientListView(c: ClientSummary): ClientListView {
  return {
    id: c.id,
    name: c.name,
    phone: c.phone,
    email: c.email,
    visits: c.visits,
    noShows: c.noShows,
    lastVisitAt: c.lastVisitAt?.toISOString() ?? null,
    nextVisitAt: c.nextVisitAt?.toISOString() ?? null,
    tags: c.tags,
  };
}

import { useSearchParams } from 'react-router';
import { useRole } from '../../lib/authorization.ts';
import { useLocations } from './queries.ts';

/** Owners and managers keep the catalogue; the front desk reads it. */
export function useCanEdit(slug: string): boolean {
  const role = useRole(slug);
  return role === 'owner' || role === 'manager';
}

/** The location of the page, from `?location=` (as on the calendar), else the first bookable one. */
export function useLocationParam(slug: string) {
  const locations = useLocations(slug);
  const [params, setParams] = useSearchParams();
  const all = locations.data ?? [];
  const wanted = params.get('location');
  const location = all.find((l) => l.slug === wanted) ?? all.find((l) => l.bookingEnabled) ?? all[0];
  const select = (next: string) => {
    const p = new URLSearchParams(params);
    p.set('location', next);
    setParams(p);
  };
  return { locations, all, location, select };
}

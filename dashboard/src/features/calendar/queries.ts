import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api.ts';

export function useLocations(slug: string) {
  return useQuery({
    queryKey: ['locations', slug],
    queryFn: async () => unwrap(await api.GET('/admin/v1/businesses/{slug}/locations', { params: { path: { slug } } })).locations,
    staleTime: 60_000,
  });
}

/** Durations of the catalogue: a requested booking's block ends after its service's duration. */
export function useServices(slug: string, locationSlug: string | undefined, allLocations = false) {
  return useQuery({
    queryKey: ['services', slug, locationSlug],
    enabled: allLocations || locationSlug !== undefined,
    queryFn: async () =>
      unwrap(await api.GET('/admin/v1/businesses/{slug}/services', { params: { path: { slug }, query: { locationSlug } } })).services,
    staleTime: 60_000,
  });
}

/** The day view of one location: staff, their hours and time off, and the day's bookings. */
export function useAgenda(slug: string, locationSlug: string | undefined, date: string | undefined) {
  return useQuery({
    queryKey: ['agenda', slug, locationSlug, date],
    enabled: locationSlug !== undefined && date !== undefined,
    queryFn: async () =>
      unwrap(
        await api.GET('/admin/v1/businesses/{slug}/agenda', {
          params: { path: { slug }, query: { locationSlug: locationSlug!, date: date! } },
        }),
      ).agenda,
    placeholderData: keepPreviousData,
    // The front desk keeps this page open: bookings made elsewhere show up without a reload.
    refetchInterval: 30_000,
  });
}

/** Staff of the location with the services each performs (the new-booking form offers only those). */
export function useStaff(slug: string, locationSlug: string | undefined, allLocations = false) {
  return useQuery({
    queryKey: ['staff', slug, locationSlug],
    enabled: allLocations || locationSlug !== undefined,
    queryFn: async () =>
      unwrap(await api.GET('/admin/v1/businesses/{slug}/staff', { params: { path: { slug }, query: { locationSlug } } })).staff,
    staleTime: 60_000,
  });
}

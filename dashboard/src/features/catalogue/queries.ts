/**
 * The catalogue's reads (locations, services, staff, resources, the business), shared by the calendar, the
 * booking dialogs and the Services, Staff and Locations pages: the one feature other features may
 * import (docs/dashboard.md, "Structure").
 */
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api.ts';
import { catalogueKeys } from '../../lib/query-keys.ts';

export function useBusiness(slug: string) {
  return useQuery({
    queryKey: catalogueKeys.business(slug),
    queryFn: async () => unwrap(await api.GET('/admin/v1/businesses/{slug}', { params: { path: { slug } } })).business,
    staleTime: 5 * 60_000,
  });
}

export function useLocations(slug: string) {
  return useQuery({
    queryKey: catalogueKeys.locations(slug),
    queryFn: async () => unwrap(await api.GET('/admin/v1/businesses/{slug}/locations', { params: { path: { slug } } })).locations,
    staleTime: 60_000,
  });
}

/** Services of a location (the calendar also needs durations: a requested booking's block ends after its service's). */
export function useServices(slug: string, locationSlug: string | undefined, allLocations = false) {
  return useQuery({
    queryKey: catalogueKeys.services(slug, locationSlug),
    enabled: allLocations || locationSlug !== undefined,
    queryFn: async () =>
      unwrap(await api.GET('/admin/v1/businesses/{slug}/services', { params: { path: { slug }, query: { locationSlug } } })).services,
    staleTime: 60_000,
  });
}

/** Staff of the location with the services each performs (the booking forms offer only those). */
export function useStaff(slug: string, locationSlug: string | undefined, allLocations = false) {
  return useQuery({
    queryKey: catalogueKeys.staff(slug, locationSlug),
    enabled: allLocations || locationSlug !== undefined,
    queryFn: async () =>
      unwrap(await api.GET('/admin/v1/businesses/{slug}/staff', { params: { path: { slug }, query: { locationSlug } } })).staff,
    staleTime: 60_000,
  });
}

/** Resources of a location (chairs, wash basins), inactive ones included; a service form offers the active ones. */
export function useResources(slug: string, locationSlug: string | undefined) {
  return useQuery({
    queryKey: catalogueKeys.resources(slug, locationSlug),
    enabled: locationSlug !== undefined,
    queryFn: async () =>
      unwrap(await api.GET('/admin/v1/businesses/{slug}/resources', { params: { path: { slug }, query: { locationSlug } } })).resources,
    staleTime: 60_000,
  });
}

export type Resource = NonNullable<ReturnType<typeof useResources>['data']>[number];
export type Service = NonNullable<ReturnType<typeof useServices>['data']>[number];
export type Staff = NonNullable<ReturnType<typeof useStaff>['data']>[number];

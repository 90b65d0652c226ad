import type { FastifyInstance, RouteOptions } from 'fastify';
import type { RouteTableEntry } from './context.ts';

/**
 * Every route the app registers, with its access config, in registration order. Filled by an
 * `onRoute` hook that buildApp installs before any route is registered, and exposed as
 * `app.routeTable`, so tests and tooling can walk the real surface (which routes are public,
 * which capability each needs, which are guest-partner routes and which are writes) without a
 * hand-kept list that drifts from the code.
 *
 * Fastify's automatic HEAD twins of GET routes are left out: they share the GET route's config.
 */
export function registerRouteTable(app: FastifyInstance): void {
  const table: RouteTableEntry[] = [];
  app.decorate('routeTable', table);
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const schema = route.schema as { operationId?: unknown; hide?: unknown } | undefined;
    for (const method of methods) {
      if (method === 'HEAD') continue;
      table.push({
        method,
        url: route.url,
        access: route.config?.access,
        operationId: typeof schema?.operationId === 'string' ? schema.operationId : undefined,
        hidden: schema?.hide === true,
      });
    }
  });
}

/** The public-API routes of a table (surface `public`). */
export function publicRoutesOf(table: readonly RouteTableEntry[]) {
  return table.filter(
    (r): r is RouteTableEntry & { access: Extract<RouteTableEntry['access'], { surface: 'public' }> } => r.access?.surface === 'public',
  );
}

/**
 * The operator-API routes of a table (surface `operator`, documented). Hidden routes behind the
 * operator token (GET /metrics, plain text rather than the envelope) are not part of that API.
 */
export function operatorRoutesOf(table: readonly RouteTableEntry[]): RouteTableEntry[] {
  return table.filter((r) => r.access?.surface === 'operator' && !r.hidden);
}

/** `/v1/bookings/:bookingId` → `/v1/bookings/{bookingId}`, the form the OpenAPI document uses. */
export function openapiPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

import { assertRealDate, assertRealDates } from '../../../domain/availability/date-range.ts';
import { searchAvailability, SLOT_LIMIT } from '../../../use-cases/availability/search.ts';
import { AppError } from '../../../domain/errors.ts';
import { catalogueRead } from '../../../use-cases/read-cache.ts';
import { cacheUse } from '../../cache-use.ts';
import { resolveLocation } from '../../../use-cases/scope.ts';
import type { App } from '../../context.ts';
import { ok, type MetaExtras } from '../../envelope.ts';
import { authOf } from '../../plugins/auth.ts';
import { AvailabilityResult, AvailabilitySearchBody } from '../../schemas/availability.ts';
import { PublicExplainBody, PublicExplanation } from '../../schemas/explain.ts';
import { requireOneServiceOrVisit } from '../../../domain/availability/visit.ts';
import { explainServiceOrVisit } from '../../../use-cases/availability/explain-any.ts';
import { withExample } from '../../openapi-parts.ts';
import { responses } from '../../schemas/common.ts';
import { PUBLIC_AUTH_ERRORS } from './access-errors.ts';
import { availabilityExample, availabilitySearchExample, explainExample, explanationExample } from '../../openapi-examples.ts';

export async function availabilityRoutes(app: App): Promise<void> {
  app.post(
    '/availability/search',
    {
      config: { access: { surface: 'public', capability: 'availability.read', group: 'availability', guestPartner: true } },
      // The slots are a union (standard or group): fast-json-stringify would run a schema validation
      // per slot to pick its branch, a fifth of a cached month's CPU (docs/performance.md). The
      // handler builds every slot field by field (toStandardSlot, the group mapping) and the error
      // envelope is built likewise, so plain JSON.stringify writes the same bytes.
      serializerCompiler: () => (data) => JSON.stringify(data),
      schema: {
        tags: ['availability'],
        operationId: 'searchAvailability',
        summary: 'Free slots of a service; a non-binding snapshot (cache at most 30 s)',
        description:
          'Searches the free slots of one service at one location over a range of local dates, optionally with one staff member. Slots are a snapshot at `snapshotAt`, not reserved: a booking may still find its slot taken (409 `booking.slot_unavailable`). A group-session service answers with session slots (`meta.bookingMode: groupSession`) whose `sessionId` and `slotToken` are sent back when booking. At most a fixed number of slots is returned; `meta.truncated` says when more exist.',
        security: [{ apiKey: [] }],
        body: withExample(AvailabilitySearchBody, availabilitySearchExample),
        response: responses(
          200,
          AvailabilityResult,
          [
            ...PUBLIC_AUTH_ERRORS,
            'availability.date_range_too_wide',
            'booking.booking_disabled',
            'catalog.service_not_found',
            'catalog.staff_not_found',
            'request.payload_too_large',
            'request.unsupported_media_type',
          ],
          { description: "The free slots, earliest first, in the location's wall-clock time.", example: availabilityExample },
        ),
      },
    },
    async (request) => {
      const auth = authOf(request);
      const body = request.body;
      assertRealDates(body.dateRange.from, body.dateRange.to);
      const cache = cacheUse(app, request);
      const location = await catalogueRead(cache, ['location', auth.businessSlug, body.salonSlug, body.locationSlug], () =>
        resolveLocation(app.ctx.db, auth, body.salonSlug, body.locationSlug),
      );
      // Slots that POST /bookings would refuse are not offered (decisions.md).
      if (!location.bookingEnabled) throw new AppError('booking.booking_disabled');
      const now = app.ctx.clock();
      requireOneServiceOrVisit(body);
      const result = await searchAvailability(app.ctx.db, {
        location,
        serviceId: body.serviceId ?? '',
        serviceIds: body.serviceIds,
        staffId: body.staffId,
        from: body.dateRange.from,
        to: body.dateRange.to,
        now,
        secret: app.ctx.serverSecret,
        cache,
      });
      const meta: MetaExtras = {};
      if (result.mode === 'groupSession') meta.bookingMode = 'groupSession';
      if (result.suppressed) meta.availabilitySuppressed = true;
      if (result.total > SLOT_LIMIT) {
        Object.assign(meta, { truncated: true, returnedSlots: result.slots.length, slotLimit: SLOT_LIMIT });
      }
      return ok(request, { slots: result.slots, snapshotAt: now.toISOString() }, meta);
    },
  );

  app.post(
    '/availability/explain',
    {
      config: { access: { surface: 'public', capability: 'availability.read', group: 'availability', guestPartner: true } },
      schema: {
        tags: ['availability'],
        operationId: 'explainAvailability',
        summary: 'Why a time is or is not bookable, per staff member',
        description:
          "For one local date and start time of a service: for each staff member who could be asked (the one given, or everyone who performs the service), whether a search of that day offers the time (`bookable`) and, when not, every reason (`reasons`, codes listed in the schema). Never says whose booking or hold is in the way. Appointment services only: a group-session service's times are its sessions.",
        security: [{ apiKey: [] }],
        body: withExample(PublicExplainBody, explainExample),
        response: responses(
          200,
          PublicExplanation,
          [
            ...PUBLIC_AUTH_ERRORS,
            'catalog.service_not_found',
            'catalog.staff_not_found',
            'request.payload_too_large',
            'request.unsupported_media_type',
          ],
          { description: 'The explanation, staff members by name.', example: explanationExample },
        ),
      },
    },
    async (request) => {
      const auth = authOf(request);
      const body = request.body;
      assertRealDate('body.date', body.date);
      const location = await resolveLocation(app.ctx.db, auth, body.salonSlug, body.locationSlug);
      const explanation = await explainServiceOrVisit(app.ctx.db, {
        location,
        serviceId: body.serviceId,
        serviceIds: body.serviceIds,
        staffId: body.staffId,
        date: body.date,
        startTime: body.startTime,
        now: app.ctx.clock(),
        withIds: false,
      });
      return ok(request, { explanation });
    },
  );
}

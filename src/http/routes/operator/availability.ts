import { Type } from 'typebox';
import { explainAtBusiness } from '../../../use-cases/availability/explain-any.ts';
import type { App } from '../../context.ts';
import { ok } from '../../envelope.ts';
import { withExample } from '../../openapi-parts.ts';
import { operatorExplainExample, operatorExplanationExample } from '../../openapi-examples.ts';
import { responses } from '../../schemas/common.ts';
import { OperatorExplainBody, OperatorExplanation } from '../../schemas/explain.ts';
import { OPERATOR_ERRORS, OPERATOR_SCHEMA, ROLES, operatorAccess } from './access.ts';

const SlugParams = Type.Object({ slug: Type.String({ maxLength: 100, description: 'The slug of the business.' }) });

/** salon-scheduling.md "Explain": every role asks why a time is not free; the answer names what is in the way. */
export async function availabilityRoutes(app: App): Promise<void> {
  app.post(
    '/businesses/:slug/availability/explain',
    {
      config: operatorAccess(ROLES.everyone, 'slug'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorExplainAvailability',
        summary: 'Why a time is or is not bookable, with what is in the way',
        description:
          'The public explain for the business (`POST /v1/availability/explain`), plus, per staff member, the ids of the bookings (`bookingIds`) and live holds (`holdIds`) that make the time `booked` or `held`.',
        params: SlugParams,
        body: withExample(OperatorExplainBody, operatorExplainExample),
        response: responses(
          200,
          OperatorExplanation,
          [...OPERATOR_ERRORS, 'request.not_found', 'catalog.service_not_found', 'catalog.staff_not_found'],
          { description: 'The explanation, staff members by name.', example: operatorExplanationExample },
        ),
      },
    },
    async (request) => {
      const body = request.body;
      const explanation = await explainAtBusiness(app.ctx.db, {
        businessSlug: request.params.slug,
        locationSlug: body.locationSlug,
        serviceId: body.serviceId,
        serviceIds: body.serviceIds,
        staffId: body.staffId,
        date: body.date,
        startTime: body.startTime,
        now: app.ctx.clock(),
      });
      return ok(request, { explanation });
    },
  );
}

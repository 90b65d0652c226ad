import { Type } from 'typebox';
import { createGroupSession, listSessions } from '../../../use-cases/operator/group-sessions.ts';
import type { App } from '../../context.ts';
import { ok } from '../../envelope.ts';
import { responses } from '../../schemas/common.ts';
import { CreateSessionBody, ServiceParams, SessionView } from '../../schemas/service.ts';
import { OPERATOR_ERRORS, OPERATOR_SCHEMA, ROLES, operatorAccess } from './access.ts';
import { createSessionExample, sessionExample } from '../../openapi-examples.ts';
import { withExample } from '../../openapi-parts.ts';

export async function sessionRoutes(app: App): Promise<void> {
  app.post(
    '/services/:serviceId/sessions',
    {
      config: operatorAccess(ROLES.managers, 'serviceId'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorCreateSession',
        summary: 'Schedule a group session of a groupSession service',
        description:
          'Schedules one group session of a `groupSession` service: staff member, start and end, seats and an optional price. Guests book seats in it through availability search and booking.',
        params: ServiceParams,
        body: withExample(CreateSessionBody, createSessionExample),
        response: responses(
          200,
          Type.Object({ session: SessionView }),
          [...OPERATOR_ERRORS, 'catalog.service_not_found', 'catalog.staff_not_found', 'booking.slot_unavailable'],
          { description: 'The new session.', example: { session: { ...sessionExample, seatsTaken: 0, remainingSeats: 8 } } },
        ),
      },
    },
    async (request) => ok(request, { session: await createGroupSession(app.ctx.db, request.params.serviceId, request.body) }),
  );

  app.get(
    '/services/:serviceId/sessions',
    {
      config: operatorAccess(ROLES.everyone, 'serviceId'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorListSessions',
        summary: 'Every group session of the service, past and full ones included, by start',
        description: 'Every group session of the service, past and full ones included, by start, with the seats taken and left.',
        params: ServiceParams,
        response: responses(200, Type.Object({ sessions: Type.Array(SessionView) }), [...OPERATOR_ERRORS, 'catalog.service_not_found'], {
          description: 'The sessions of the service.',
          example: { sessions: [sessionExample] },
        }),
      },
    },
    async (request) => ok(request, { sessions: await listSessions(app.ctx.db, request.params.serviceId) }),
  );
}

import { Type } from 'typebox';
import { createStaff, getStaff, listStaff, patchStaff } from '../../../use-cases/operator/staff.ts';
import { createTimeOff, listTimeOff, removeTimeOff } from '../../../use-cases/operator/time-off.ts';
import type { App } from '../../context.ts';
import { ok } from '../../envelope.ts';
import { DateString, responses } from '../../schemas/common.ts';
import { CreateStaffBody, CreateTimeOffBody, PatchStaffBody, StaffParams, StaffView, TimeOffView } from '../../schemas/staff.ts';
import { LocationFilter } from '../../schemas/location.ts';
import { OPERATOR_ERRORS, OPERATOR_SCHEMA, ROLES, operatorAccess } from './access.ts';
import { createStaffExample, createTimeOffExample, staffExample, timeOffExample } from '../../openapi-examples.ts';
import { withExample } from '../../openapi-parts.ts';

export async function staffRoutes(app: App): Promise<void> {
  app.post(
    '/businesses/:slug/staff',
    {
      config: operatorAccess(ROLES.managers, 'slug'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorCreateStaff',
        summary: 'Create a staff member with services and working hours; an active one counts against maxStaffMembers',
        description:
          "Creates a staff member at a location with the services they perform and their weekly working hours (local wall-clock). An active staff member counts against the plan's `maxStaffMembers`.",
        params: Type.Object({ slug: Type.String({ maxLength: 100, description: 'The slug of the business.' }) }),
        body: withExample(CreateStaffBody, createStaffExample),
        response: responses(
          200,
          Type.Object({ staff: StaffView }),
          [...OPERATOR_ERRORS, 'request.not_found', 'catalog.service_not_found', 'subscription.quota_exceeded'],
          { description: 'The new staff member.', example: { staff: staffExample } },
        ),
      },
    },
    async (request) => ok(request, { staff: await createStaff(app.ctx.db, request.params.slug, request.body) }),
  );

  app.get(
    '/businesses/:slug/staff',
    {
      config: operatorAccess(ROLES.everyone, 'slug'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorListStaff',
        summary: 'Every staff member with serviceIds and workingHours, inactive ones included, by name',
        description:
          'Every staff member of the business, inactive ones included, sorted by name, with their services and working hours; optionally of one location.',
        params: Type.Object({ slug: Type.String({ maxLength: 100, description: 'The slug of the business.' }) }),
        querystring: LocationFilter,
        response: responses(200, Type.Object({ staff: Type.Array(StaffView) }), [...OPERATOR_ERRORS, 'request.not_found'], {
          description: 'The staff of the business.',
          example: { staff: [staffExample] },
        }),
      },
    },
    async (request) => ok(request, { staff: await listStaff(app.ctx.db, request.params.slug, request.query.locationSlug) }),
  );

  app.get(
    '/staff/:staffId',
    {
      config: operatorAccess(ROLES.everyone, 'staffId'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorGetStaff',
        summary: 'One staff member with serviceIds and workingHours',
        description: 'One staff member with their services and working hours.',
        params: StaffParams,
        response: responses(200, Type.Object({ staff: StaffView }), [...OPERATOR_ERRORS, 'catalog.staff_not_found'], {
          description: 'The staff member.',
          example: { staff: staffExample },
        }),
      },
    },
    async (request) => ok(request, { staff: await getStaff(app.ctx.db, request.params.staffId) }),
  );

  app.patch(
    '/staff/:staffId',
    {
      config: operatorAccess(ROLES.managers, 'staffId'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorPatchStaff',
        summary: 'Change any staff field; serviceIds and workingHours, when given, replace the stored ones',
        description:
          'Changes any field of a staff member; `serviceIds` and `workingHours`, when given, replace the stored lists. Existing bookings stay as they are.',
        params: StaffParams,
        body: withExample(PatchStaffBody, {
          workingHours: [...createStaffExample.workingHours, { weekday: 6, start: '09:00', end: '13:00' }],
        }),
        response: responses(
          200,
          Type.Object({ staff: StaffView }),
          [...OPERATOR_ERRORS, 'catalog.staff_not_found', 'catalog.service_not_found', 'subscription.quota_exceeded'],
          {
            description: 'The staff member as changed.',
            example: {
              staff: {
                ...staffExample,
                workingHours: [...staffExample.workingHours, { weekday: 6, start: '09:00', end: '13:00' }],
                updatedAt: '2026-11-25T10:10:00.000Z',
              },
            },
          },
        ),
      },
    },
    async (request) => ok(request, { staff: await patchStaff(app.ctx.db, request.params.staffId, request.body) }),
  );

  app.post(
    '/staff/:staffId/time-off',
    {
      config: operatorAccess(ROLES.managers, 'staffId'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorCreateTimeOff',
        summary: "Add time off, given in the location's wall-clock time",
        description:
          "Blocks a period of a staff member (holiday, sick leave, training), given in the location's wall-clock time; availability stops offering it at once. Bookings already in it stay.",
        params: StaffParams,
        body: withExample(CreateTimeOffBody, createTimeOffExample),
        response: responses(200, Type.Object({ timeOff: TimeOffView }), [...OPERATOR_ERRORS, 'catalog.staff_not_found'], {
          description: 'The new time off, with its UTC bounds.',
          example: { timeOff: timeOffExample },
        }),
      },
    },
    async (request) => ok(request, { timeOff: await createTimeOff(app.ctx.db, request.params.staffId, request.body) }),
  );

  app.get(
    '/staff/:staffId/time-off',
    {
      config: operatorAccess(ROLES.everyone, 'staffId'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorListTimeOff',
        summary: "A staff member's time off overlapping the local days from..to (both included), by start",
        description: 'The time off of a staff member that overlaps the local days `from` to `to` (both included), by start.',
        params: StaffParams,
        querystring: Type.Object({
          from: Type.Optional(DateString("first local day (the location's zone)")),
          to: Type.Optional(DateString('last local day, included')),
        }),
        response: responses(200, Type.Object({ timeOff: Type.Array(TimeOffView) }), [...OPERATOR_ERRORS, 'catalog.staff_not_found'], {
          description: 'The time off of the staff member.',
          example: { timeOff: [timeOffExample] },
        }),
      },
    },
    async (request) => ok(request, { timeOff: await listTimeOff(app.ctx.db, request.params.staffId, request.query) }),
  );

  app.delete(
    '/time-off/:timeOffId',
    {
      config: operatorAccess(ROLES.managers, 'timeOffId'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorDeleteTimeOff',
        summary: 'Remove time off; answers it as it was',
        description: 'Removes a period of time off; the time is offered again at once. Answers it as it was.',
        params: Type.Object({ timeOffId: Type.String({ maxLength: 100, description: 'The id of the time off (`off_…`).' }) }),
        response: responses(200, Type.Object({ timeOff: TimeOffView }), [...OPERATOR_ERRORS, 'request.not_found'], {
          description: 'The removed time off.',
          example: { timeOff: timeOffExample },
        }),
      },
    },
    async (request) => ok(request, { timeOff: await removeTimeOff(app.ctx.db, request.params.timeOffId) }),
  );
}

import { Type } from 'typebox';
import { createStaff, getStaff, listStaff, patchStaff } from '../../../use-cases/operator/staff.ts';
import { createTimeOff, listTimeOff, removeTimeOff } from '../../../use-cases/operator/time-off.ts';
import type { App } from '../../context.ts';
import { ok } from '../../envelope.ts';
import { DateString, responses } from '../../schemas/common.ts';
import { CreateStaffBody, CreateTimeOffBody, PatchStaffBody, StaffParams, StaffView, TimeOffView } from '../../schemas/staff.ts';
import { LocationFilter } from '../../schemas/location.ts';
import { OPERATOR_ERRORS, OPERATOR_SCHEMA, ROLES, operatorAccess } from './access.ts';

export async function staffRoutes(app: App): Promise<void> {
  app.post(
    '/businesses/:slug/staff',
    {
      config: operatorAccess(ROLES.managers, 'slug'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorCreateStaff',
        summary: 'Create a staff member with services and working hours; an active one counts against maxStaffMembers',
        params: Type.Object({ slug: Type.String({ maxLength: 100 }) }),
        body: CreateStaffBody,
        response: responses(200, Type.Object({ staff: StaffView }), [
          ...OPERATOR_ERRORS,
          'request.not_found',
          'catalog.service_not_found',
          'subscription.quota_exceeded',
        ]),
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
        params: Type.Object({ slug: Type.String({ maxLength: 100 }) }),
        querystring: LocationFilter,
        response: responses(200, Type.Object({ staff: Type.Array(StaffView) }), [...OPERATOR_ERRORS, 'request.not_found']),
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
        params: StaffParams,
        response: responses(200, Type.Object({ staff: StaffView }), [...OPERATOR_ERRORS, 'catalog.staff_not_found']),
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
        params: StaffParams,
        body: PatchStaffBody,
        response: responses(200, Type.Object({ staff: StaffView }), [
          ...OPERATOR_ERRORS,
          'catalog.staff_not_found',
          'catalog.service_not_found',
          'subscription.quota_exceeded',
        ]),
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
        params: StaffParams,
        body: CreateTimeOffBody,
        response: responses(200, Type.Object({ timeOff: TimeOffView }), [...OPERATOR_ERRORS, 'catalog.staff_not_found']),
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
        params: StaffParams,
        querystring: Type.Object({
          from: Type.Optional(DateString("first local day (the location's zone)")),
          to: Type.Optional(DateString('last local day, included')),
        }),
        response: responses(200, Type.Object({ timeOff: Type.Array(TimeOffView) }), [...OPERATOR_ERRORS, 'catalog.staff_not_found']),
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
        params: Type.Object({ timeOffId: Type.String({ maxLength: 100 }) }),
        response: responses(200, Type.Object({ timeOff: TimeOffView }), [...OPERATOR_ERRORS, 'request.not_found']),
      },
    },
    async (request) => ok(request, { timeOff: await removeTimeOff(app.ctx.db, request.params.timeOffId) }),
  );
}

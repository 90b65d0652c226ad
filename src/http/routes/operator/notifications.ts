import type { FastifyRequest } from 'fastify';
import { type Caller, listNotifications, resendNotification } from '../../../use-cases/messages/log.ts';
import type { App } from '../../context.ts';
import { ok } from '../../envelope.ts';
import { Type } from 'typebox';
import { responses } from '../../schemas/common.ts';
import { Notification, NotificationParams, NotificationsQuery } from '../../schemas/notification.ts';
import { CURSOR_EXAMPLE, failedSmsNotificationExample, notificationExample, resentNotificationExample } from '../../openapi-examples.ts';
import { OPERATOR_ERRORS, OPERATOR_SCHEMA, ROLES, operatorAccess } from './access.ts';

const SlugParams = Type.Object({ slug: Type.String({ maxLength: 100, description: 'The slug of the business.' }) });

function callerOf(request: FastifyRequest): Caller {
  const p = request.principal;
  if (p?.kind === 'member') return { memberships: p.session.memberships };
  return 'platform';
}

/**
 * The messages log (guest-side.md "Notifications"): every message planned for a guest or the
 * business, recipients masked, and the resend of one. The auth hook lets every role of the
 * business in; the front desk is then narrowed to one booking's messages (use-cases/messages/log.ts).
 */
export async function notificationRoutes(app: App): Promise<void> {
  app.get(
    '/businesses/:slug/notifications',
    {
      config: operatorAccess(ROLES.everyone, 'slug'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorListNotifications',
        summary: 'The messages log, latest scheduled first, recipients masked (the front desk: one booking at a time)',
        description:
          "Every message planned for the business's guests and members, the latest scheduled first: kind, channel, masked recipient, status, attempts, last error (masked too) and times. Owners and managers see all of it; the front desk only with `bookingId`, a booking of the business (otherwise 403 `auth.insufficient_capability`). A `bookingId` of no booking of this business is 404 `booking.not_found`. Page with `meta.cursor`.",
        params: SlugParams,
        querystring: NotificationsQuery,
        response: responses(
          200,
          Type.Object({ notifications: Type.Array(Notification) }),
          [...OPERATOR_ERRORS, 'request.not_found', 'booking.not_found', 'request.invalid_cursor'],
          {
            description: 'One page of the messages log.',
            example: { notifications: [notificationExample, failedSmsNotificationExample] },
            meta: { cursor: CURSOR_EXAMPLE },
          },
        ),
      },
    },
    async (request) => {
      const { notifications, cursor } = await listNotifications(
        app.ctx.db,
        app.ctx.serverSecret,
        request.params.slug,
        request.query,
        callerOf(request),
      );
      return ok(request, { notifications }, cursor ? { cursor } : undefined);
    },
  );

  app.post(
    '/notifications/:notificationId/resend',
    {
      config: operatorAccess(ROLES.everyone, 'notificationId'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorResendNotification',
        summary: 'Send a message again: a new message copying it, due now (no body)',
        description:
          'Plans a new message with the same kind, channel, recipient, language and content as the one named, due now, and answers it (status `pending`). The worker sends it like any other, so a reminder of a booking that is no longer confirmed ends `skipped`. Any status may be resent. The front desk may resend the messages of a booking; a message of no booking (a waitlist offer) needs an owner or manager.',
        params: NotificationParams,
        response: responses(201, Type.Object({ notification: Notification }), [...OPERATOR_ERRORS, 'request.not_found'], {
          description: 'The new message.',
          example: { notification: resentNotificationExample },
        }),
      },
    },
    async (request, reply) => {
      const notification = await resendNotification(app.ctx.db, request.params.notificationId, callerOf(request), app.ctx.clock());
      reply.code(201);
      return ok(request, { notification });
    },
  );
}

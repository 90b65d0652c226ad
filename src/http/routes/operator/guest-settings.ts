import { Type } from 'typebox';
import type { GuestSettingsPatch } from '../../../domain/guest-settings/settings.ts';
import { getGuestSettings, patchGuestSettings } from '../../../use-cases/operator/guest-settings.ts';
import type { App } from '../../context.ts';
import { ok } from '../../envelope.ts';
import { guestSettingsExample, patchGuestSettingsExample } from '../../openapi-examples.ts';
import { withExample } from '../../openapi-parts.ts';
import { responses } from '../../schemas/common.ts';
import { GuestSettingsParams, GuestSettingsView, PatchGuestSettingsBody } from '../../schemas/guest-settings.ts';
import { OPERATOR_ERRORS, OPERATOR_SCHEMA, ROLES, operatorAccess } from './access.ts';

/** docs/guest-settings.md: read by every role, changed by owners and managers. */
export async function guestSettingsRoutes(app: App): Promise<void> {
  app.get(
    '/businesses/:slug/guest-settings',
    {
      config: operatorAccess(ROLES.everyone, 'slug'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorGetGuestSettings',
        summary: "The business's guest settings, every field with its default",
        description:
          'How the booking page, holds, guest self-service, guest messages and the waitlist behave for this business: every field, the defaults where the business changed nothing.',
        params: GuestSettingsParams,
        response: responses(200, Type.Object({ guestSettings: GuestSettingsView }), [...OPERATOR_ERRORS, 'request.not_found'], {
          description: 'The guest settings.',
          example: { guestSettings: guestSettingsExample },
        }),
      },
    },
    async (request) => ok(request, { guestSettings: await getGuestSettings(app.ctx.db, request.params.slug) }),
  );

  app.patch(
    '/businesses/:slug/guest-settings',
    {
      config: operatorAccess(ROLES.managers, 'slug'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorPatchGuestSettings',
        summary: 'Change any subset of the guest settings',
        description:
          'Changes any subset of the guest settings, at any depth: an object merges field by field (`{ "notifications": { "sms": true } }` changes only `notifications.sms`), while an array or `null` replaces the value. `notifications.sms: true` needs the plan feature `smsNotifications`. Answers the whole settings as changed.',
        params: GuestSettingsParams,
        body: withExample(PatchGuestSettingsBody, patchGuestSettingsExample),
        response: responses(200, Type.Object({ guestSettings: GuestSettingsView }), [...OPERATOR_ERRORS, 'request.not_found'], {
          description: 'The guest settings as changed.',
          example: { guestSettings: guestSettingsExample },
        }),
      },
    },
    async (request) =>
      ok(request, {
        guestSettings: await patchGuestSettings(app.ctx.db, request.params.slug, request.body as GuestSettingsPatch),
      }),
  );
}

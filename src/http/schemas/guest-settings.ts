import { Type, type TSchema } from 'typebox';
import { GUEST_EMAIL_MODES, LIMITS } from '../../domain/guest-settings/settings.ts';
import { TIME_PATTERN } from './common.ts';

/**
 * The guest settings of a business (docs/guest-settings.md). One set of field schemas serves the
 * answer (every field present) and the PATCH body (any subset, at any depth: `partial` below). The
 * bounds come from the domain's LIMITS; the rules a schema cannot say (real https URLs, origin
 * spelling, distinct reminders, SMS on the plan) are the domain's checkGuestSettingsPatch.
 */

const HttpsUrl = (description: string) =>
  Type.Union([Type.String({ minLength: 9, maxLength: LIMITS.urlMaxChars, pattern: '^https://' }), Type.Null()], {
    description: `${description}; an absolute https URL, or null. Default null`,
  });

const Version = (description: string) =>
  Type.String({ minLength: 1, maxLength: LIMITS.versionMaxChars, description: `${description}. Default "1"` });

const Notice = (what: string) =>
  Type.Object(
    {
      allowed: Type.Boolean({ description: `whether the guest may ${what} on their own. Default true` }),
      noticeMinutes: Type.Integer({
        minimum: LIMITS.noticeMinutes.min,
        maximum: LIMITS.noticeMinutes.max,
        description: `at least this many minutes before the start (0 to 20,160). Default 1440`,
      }),
    },
    { additionalProperties: false, description: `guest self-service: ${what}` },
  );

const QuietHours = Type.Union(
  [
    Type.Object(
      {
        start: Type.String({ pattern: TIME_PATTERN, description: 'location-local HH:MM' }),
        end: Type.String({ pattern: TIME_PATTERN, description: 'location-local HH:MM, not equal to start; before start spans midnight' }),
      },
      { additionalProperties: false },
    ),
    Type.Null(),
  ],
  {
    description:
      'no message to guests between start and end, location-local (it spans midnight when end is before start); null: none. Replaced as a whole. Default { start: "21:00", end: "08:00" }',
  },
);

const fields = {
  bookingPage: Type.Object(
    {
      enabled: Type.Boolean({ description: 'false: the booking page answers a 404 page. Default true' }),
      introText: Type.Union([Type.String({ maxLength: LIMITS.introTextMaxChars }), Type.Null()], {
        description: 'shown on the first step; at most 1,000 characters, or null. Default null',
      }),
      accentColor: Type.Union([Type.String({ pattern: '^#[0-9A-Fa-f]{6}$' }), Type.Null()], {
        description: '#RRGGBB, or null; used only when the plan has bookingPageBranding. Default null',
      }),
      logoUrl: HttpsUrl('the logo on the page; used only when the plan has bookingPageBranding'),
      embedOrigins: Type.Array(Type.String({ maxLength: 300, pattern: '^https://[^/?#@]+$' }), {
        maxItems: LIMITS.embedOriginsMax,
        description:
          'origins (https://host[:port], no path, no trailing slash) allowed to frame the page; at most 20, no repeats; stored with the host in lower case and :443 dropped. Replaced as a whole. Default []',
      }),
      termsUrl: HttpsUrl('the terms, linked beside the consent box'),
      privacyUrl: HttpsUrl('the privacy notice, linked beside the consent box'),
      termsVersion: Version("recorded in the booking's consent"),
      privacyNoticeVersion: Version("recorded in the booking's consent"),
    },
    { additionalProperties: false, description: "the business's booking page" },
  ),
  holdMinutes: Type.Integer({
    minimum: LIMITS.holdMinutes.min,
    maximum: LIMITS.holdMinutes.max,
    description: 'how long a chosen time is held for the guest (1 to 30). Default 10',
  }),
  guestCancel: Notice('cancel'),
  guestReschedule: Notice('reschedule'),
  notifications: Type.Object(
    {
      guestEmail: Type.Union(
        GUEST_EMAIL_MODES.map((m) => Type.Literal(m)),
        {
          description:
            'mail to guests: all, bookingPageOnly (only bookings made on the booking page or the manage page), or off. Default "all"',
        },
      ),
      reminders: Type.Array(
        Type.Object(
          {
            minutesBefore: Type.Integer({
              minimum: LIMITS.reminderMinutesBefore.min,
              maximum: LIMITS.reminderMinutesBefore.max,
              description: 'minutes before the start (1 to 10,080), distinct across reminders',
            }),
          },
          { additionalProperties: false },
        ),
        {
          maxItems: LIMITS.remindersMax,
          description: 'reminders to the guest, 0 to 3. Replaced as a whole. Default [{ minutesBefore: 1440 }]',
        },
      ),
      quietHours: QuietHours,
      sms: Type.Boolean({
        description: "text messages to guests; true only when the business's plan has smsNotifications. Default false",
      }),
      businessEmail: Type.Object(
        {
          newRequest: Type.Boolean({ description: 'a new booking request. Default true' }),
          guestCancelled: Type.Boolean({ description: 'a guest cancelled. Default true' }),
        },
        { additionalProperties: false, description: 'mail to owners and managers' },
      ),
    },
    { additionalProperties: false, description: 'messages to guests and to the business' },
  ),
  waitlist: Type.Object(
    {
      enabled: Type.Boolean({ description: 'Default true' }),
      offerMinutes: Type.Integer({
        minimum: LIMITS.offerMinutes.min,
        maximum: LIMITS.offerMinutes.max,
        description: 'how long a freed time is offered to a waiting guest (5 to 1,440). Default 30',
      }),
    },
    { additionalProperties: false, description: 'the waitlist' },
  ),
};

export const GuestSettingsView = Type.Object(fields, { additionalProperties: false });

/**
 * Every object property optional, recursively, descriptions kept; arrays, unions (the nullable
 * values, quietHours) and scalars are taken whole.
 */
function partial(schema: TSchema): TSchema {
  const s = schema as TSchema & { type?: string; properties?: Record<string, TSchema> };
  if (s.type !== 'object' || !s.properties) return schema;
  const props = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, Type.Optional(partial(v))]));
  const { properties: _p, required: _r, ...options } = s as Record<string, unknown>;
  return Type.Object(props, options as Parameters<typeof Type.Object>[1]);
}

export const PatchGuestSettingsBody = partial(GuestSettingsView);

export const GuestSettingsParams = Type.Object({ slug: Type.String({ maxLength: 100, description: 'The slug of the business.' }) });

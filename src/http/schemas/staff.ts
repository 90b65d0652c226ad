import { Type } from 'typebox';
import { DateString, TIME_PATTERN, TimeString } from './common.ts';

// Like TimeString, plus "24:00" so a shift can run to the end of the day.
const END_TIME_PATTERN = `${TIME_PATTERN}|^24:00$`;

const WorkingHoursEntry = Type.Object(
  {
    weekday: Type.Integer({ minimum: 1, maximum: 7, description: 'ISO weekday, Monday = 1' }),
    start: TimeString('local HH:MM'),
    end: Type.String({ pattern: END_TIME_PATTERN, description: 'local HH:MM after start; 24:00 for end of day' }),
  },
  { additionalProperties: false },
);

const WorkingHours = (description: string) =>
  Type.Array(WorkingHoursEntry, {
    maxItems: 100,
    description: `${description}; intervals of one weekday must not overlap, a gap between two is a break`,
  });

const ServiceIds = (description: string) =>
  Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
    maxItems: 500,
    uniqueItems: true,
    description: `services of the same location this staff member performs; ${description}`,
  });

const staffFields = {
  locationSlug: Type.String({ minLength: 1, maxLength: 100 }),
  name: Type.String({ minLength: 1, maxLength: 200 }),
  active: Type.Optional(Type.Boolean({ description: 'default true; counts against maxStaffMembers' })),
  position: Type.Optional(
    Type.Union([Type.Integer({ minimum: 0, maximum: 10_000 }), Type.Null()], {
      description:
        "display order among the location's staff, lowest first; null or absent: after those with one, by name. A location's `ordered` assignment follows it",
    }),
  ),
  serviceIds: ServiceIds('may be empty'),
  workingHours: WorkingHours('local wall-clock'),
};

const Bio = Type.String({ minLength: 1, maxLength: 2000 });
const AvatarUrl = Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2000 });

export const CreateStaffBody = Type.Object(
  { ...staffFields, bio: Type.Optional(Bio), avatarUrl: Type.Optional(AvatarUrl) },
  { additionalProperties: false },
);

export const PatchStaffBody = Type.Partial(
  Type.Object({
    ...staffFields,
    locationSlug: Type.String({ minLength: 1, maxLength: 100, description: 'cannot change; accepted when unchanged' }),
    serviceIds: ServiceIds('replaces the stored list'),
    workingHours: WorkingHours('replaces the stored intervals'),
    bio: Type.Union([Bio, Type.Null()], { description: 'null clears it' }),
    avatarUrl: Type.Union([AvatarUrl, Type.Null()], { description: 'null clears it' }),
  }),
  { additionalProperties: false },
);

export const StaffParams = Type.Object({ staffId: Type.String({ maxLength: 100, description: 'The id of the staff member (`stf_…`).' }) });

export const StaffView = Type.Object({
  id: Type.String(),
  locationId: Type.String(),
  locationSlug: Type.String(),
  name: Type.String(),
  bio: Type.Union([Type.String(), Type.Null()]),
  avatarUrl: Type.Union([Type.String(), Type.Null()]),
  active: Type.Boolean(),
  position: Type.Union([Type.Integer(), Type.Null()], { description: 'display order; null: after those with one, by name' }),
  serviceIds: Type.Array(Type.String()),
  workingHours: Type.Array(Type.Object({ weekday: Type.Integer(), start: Type.String(), end: Type.String() })),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});

const LocalDateTime = Type.Object(
  { date: DateString('local date YYYY-MM-DD'), time: TimeString('local HH:MM') },
  { additionalProperties: false },
);

export const CreateTimeOffBody = Type.Object(
  { from: LocalDateTime, to: LocalDateTime },
  { additionalProperties: false, description: "wall-clock times in the location's time zone; from before to" },
);

export const TimeOffView = Type.Object({
  id: Type.String(),
  staffId: Type.String(),
  from: Type.Object({ date: Type.String(), time: Type.String() }),
  to: Type.Object({ date: Type.String(), time: Type.String() }),
  timezone: Type.String(),
  startAtUtc: Type.String({ format: 'date-time' }),
  endAtUtc: Type.String({ format: 'date-time' }),
  createdAt: Type.String({ format: 'date-time' }),
});

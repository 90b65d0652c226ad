import { Type } from 'typebox';

export const CalendarFeedResult = Type.Object({
  feedUrl: Type.String({
    format: 'uri',
    description:
      'The secret subscription address `{PUBLIC_BASE_URL}/ical/{token}.ics`, shown this once (only its hash is stored). It replaces the previous feed of the same staff member or location, which answers 404 from now on.',
  }),
});

export const calendarFeedExample = {
  feedUrl: 'https://booking.example.com/ical/q3Vb8mZ0tR1xK7pL2sN9cW4eY6hJ5gF0aD8uI3oQ2vE.ics',
};

/** `{token}.ics`, one path segment; what is not a well-formed token is a 404, never a 400. */
export const FeedFileParams = Type.Object({ file: Type.String() });

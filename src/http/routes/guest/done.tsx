import { readDone, signDone } from '../../../domain/booking-page/tokens.ts';
import type { FastifyReply } from 'fastify';
import type { BookingRecord } from '../../../domain/bookings/record.ts';
import { pageBooking, pageVisitParts } from '../../../use-cases/guest/book.ts';
import { DoneStep } from '../../../ui/booking/done.tsx';
import { manageUrl } from '../../../use-cases/guest/manage-link.ts';
import { bookingCalendar } from '../../../ui/calendar.ts';
import { formatDate } from '../../../ui/format.ts';
import { type Lang, type Messages, messages } from '../../../ui/i18n/index.ts';
import { AppError } from '../../../domain/errors.ts';
import type { App } from '../../context.ts';
import { bookPath, field, frameOf, framingOf, locationOf } from './context.ts';
import { langOf, link, pageHeaders, renderPage } from './kit.tsx';
import { emailOf } from './manage.tsx';

const GUEST = { access: { surface: 'guest' as const } };

function summaryOf(t: Messages, lang: Lang, b: BookingRecord, parts: readonly BookingRecord[]): Array<[string, string]> {
  if (parts.length > 1) {
    // A visit: each part with its own reference, staff member and times.
    return [
      ...parts.map((p, i): [string, string] => [
        t.partLabel(i + 1),
        `${t.partLine(p.serviceName, p.staffName ?? '', p.slot.startTime, p.slot.endTime)} · ${p.publicReference}`,
      ]),
      [t.date, formatDate(lang, b.slot.date, 'long')],
      [t.location, b.locationSnapshot.publicLocationName],
    ];
  }
  const rows: Array<[string, string]> = [
    [t.reference, b.publicReference],
    [t.service, b.serviceName],
  ];
  if (b.staffName) rows.push([t.staff, b.staffName]);
  rows.push(
    [t.date, formatDate(lang, b.slot.date, 'long')],
    [t.time, b.slot.startTime],
    [t.location, b.locationSnapshot.publicLocationName],
  );
  return rows;
}

/** Step 6 and its calendar file; the manage link is the booking's stored one (made here on first need). */
export async function doneRoutes(app: App): Promise<void> {
  const linkCtx = { secret: app.ctx.serverSecret, publicBaseUrl: app.ctx.config.publicBaseUrl };
  const manageHref = (booking: BookingRecord) => manageUrl(app.ctx.db, linkCtx, booking);

  app.get('/book/:salonSlug/:locationSlug/done', { config: GUEST, schema: { hide: true } }, async (request, reply) => {
    const { salonSlug, locationSlug } = request.params as { salonSlug: string; locationSlug: string };
    const { page, location } = await locationOf(app, salonSlug, locationSlug);
    const token = field(request.query, 'b');
    const done = readDone(app.ctx.serverSecret, token);
    const booking = done ? await pageBooking(app.ctx.db, page.business.id, done.b) : undefined;
    if (!done || !booking || booking.locationId !== location.id) throw new AppError('request.not_found');
    const lang = langOf(request);
    const t = messages(lang);
    const base = bookPath(salonSlug, locationSlug);
    const parts = await pageVisitParts(app.ctx.db, booking);
    const confirmed = parts.every((p) => p.status === 'confirmed');
    const html = renderPage(
      frameOf(page, lang, confirmed ? t.bookingConfirmed : t.bookingReceived, { path: `${base}/done`, query: { b: token } }, true),
      <DoneStep
        t={t}
        confirmed={confirmed}
        summary={summaryOf(t, lang, booking, parts)}
        icsHref={link(`${base}/calendar.ics`, { b: signDone(app.ctx.serverSecret, { b: booking.id }) })}
        manageHref={link(await manageHref(booking), { lang })}
        payHref={done.p}
        againHref={link(base, { lang })}
      />,
    );
    // The done URL names the booking (and its payment link): it must not leak through a Referer.
    return pageHeaders(reply, framingOf(page), 'no-referrer').send(html);
  });

  app.get('/book/:salonSlug/:locationSlug/calendar.ics', { config: GUEST, schema: { hide: true } }, async (request, reply) => {
    const { salonSlug, locationSlug } = request.params as { salonSlug: string; locationSlug: string };
    const { page } = await locationOf(app, salonSlug, locationSlug);
    const done = readDone(app.ctx.serverSecret, field(request.query, 'b'));
    const booking = done ? await pageBooking(app.ctx.db, page.business.id, done.b) : undefined;
    if (!booking) throw new AppError('request.not_found');
    return sendIcs(reply, booking, await pageVisitParts(app.ctx.db, booking), page.business.name);
  });

  /** The booking's .ics, as a download. */
  async function sendIcs(
    reply: FastifyReply,
    booking: BookingRecord,
    parts: BookingRecord[],
    organizerName: string,
  ): Promise<FastifyReply> {
    const ics = bookingCalendar(parts, {
      businessName: organizerName,
      uidDomain: new URL(app.ctx.config.publicBaseUrl).hostname,
      organizerEmail: emailOf(app.ctx.config.mailFrom),
      manageUrl: await manageHref(booking),
      now: app.ctx.clock(),
    });
    return reply
      .headers({
        'content-type': 'text/calendar; charset=utf-8',
        'content-disposition': `attachment; filename="booking-${booking.publicReference.replace(/[^A-Za-z0-9-]/g, '')}.ics"`,
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
      })
      .send(ics);
  }
}

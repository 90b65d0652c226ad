import { recordGuestAction } from '../../../use-cases/audit/record.ts';
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ReactElement } from 'react';
import { readChoice, signChoice } from '../../../domain/booking-page/tokens.ts';
import type { BookingRecord } from '../../../domain/bookings/record.ts';
import { AppError, isAppError } from '../../../domain/errors.ts';
import { formatIsoDate, parseIsoDate } from '../../../domain/time/calendar.ts';
import { localDateOf } from '../../../domain/time/zone-day.ts';
import { holdPageTime, holdPageVisit } from '../../../use-cases/guest/hold.ts';
import { visitMinutes } from '../../../domain/booking-page/visit.ts';
import type { ServiceRecord } from '../../../domain/catalog-records.ts';
import { priceText } from '../../../ui/booking/choose.tsx';
import {
  acceptProposalAsGuest,
  cancelAsGuest,
  declineProposalAsGuest,
  type ManagePage,
  openManagePage,
  rescheduleAsGuest,
  rescheduleVisitAsGuest,
} from '../../../use-cases/guest/manage.ts';
import { pageStaff } from '../../../use-cases/guest/page.ts';
import { bookableDates, weekTimes } from '../../../use-cases/guest/times.ts';
import { bookingCalendar } from '../../../ui/calendar.ts';
import { CancelConfirm, ManageView, RescheduleConfirm } from '../../../ui/booking/manage.tsx';
import { TimesStep } from '../../../ui/booking/times.tsx';
import { formatDate, formatTimeIn } from '../../../ui/format.ts';
import { type Lang, type Messages, messages } from '../../../ui/i18n/index.ts';
import type { App } from '../../context.ts';
import { field } from './context.ts';
import { isRealDate, maxDate, minDate, weekStart } from './weeks.ts';
import { overGuestLimit } from './guards.ts';
import { guestCsp, langOf, link, pageHeaders, renderPage, sendMessage } from './kit.tsx';

const GUEST = { access: { surface: 'guest' as const } };
const FORM_SCHEMA = { hide: true, body: { type: 'object' } };
/** The manage page is never framed: its link is the guest's key to the booking. */
const NO_FRAMING = { embedOrigins: [] };

/** A time that cannot be had any more: the guest goes back to the time step and is told so. */
const TIME_GONE = new Set([
  'booking.slot_unavailable',
  'booking.hold_expired',
  'booking.hold_mismatch',
  'booking.hold_not_found',
  'catalog.staff_not_found',
]);

const DONE = { cancelled: 'doneCancelled', rescheduled: 'doneRescheduled', accepted: 'doneAccepted', declined: 'doneDeclined' } as const;
type Done = keyof typeof DONE;

/** The page's headers: no caching, no Referer (the URL is the key), not indexed. */
function manageHeaders(reply: FastifyReply): FastifyReply {
  return pageHeaders(reply, NO_FRAMING, 'no-referrer').header('x-robots-tag', 'noindex, nofollow');
}

/** Post/redirect/get under the same headers as the page. */
function redirect(reply: FastifyReply, url: string): FastifyReply {
  return reply
    .headers({
      'content-security-policy': guestCsp(NO_FRAMING),
      'x-frame-options': 'SAMEORIGIN',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
      'x-robots-tag': 'noindex, nofollow',
    })
    .redirect(url, 303);
}

/** A date and start in the location's zone, the zone named: `Monday 10 March 2031, 10:00 (Europe/Budapest time)`. */
function when(t: Messages, lang: Lang, slot: { date: string; startTime: string }, zone: string): string {
  return `${formatDate(lang, slot.date, 'long')}, ${t.timeInZone(slot.startTime, zone)}`;
}

function instantIn(t: Messages, lang: Lang, instant: Date, zone: string): string {
  return when(t, lang, { date: localDateOf(zone, instant.getTime()), startTime: formatTimeIn(zone, instant) }, zone);
}

function summaryOf(t: Messages, lang: Lang, m: ManagePage): Array<[string, string]> {
  const b = m.booking;
  if (m.visit) {
    // A visit: every part, each with its own reference (the one this link opens among them).
    return [
      [t.location, m.location.publicLocationName],
      [t.status, t.statusNames[b.status]],
      ...m.visit.parts.map((p, i): [string, string] => [
        t.partLabel(i + 1),
        `${t.partLine(p.serviceName, p.staffName ?? '', p.slot.startTime, p.slot.endTime)} · ${p.publicReference}`,
      ]),
      [t.date, formatDate(lang, m.visit.parts[0]!.slot.date, 'long')],
      [t.time, t.timeInZone(m.visit.parts[0]!.slot.startTime, b.timezone)],
    ];
  }
  const rows: Array<[string, string]> = [
    [t.location, m.location.publicLocationName],
    [t.reference, b.publicReference],
    [t.status, t.statusNames[b.status]],
    [t.service, b.serviceName],
  ];
  if (b.staffName) rows.push([t.staff, b.staffName]);
  rows.push([t.date, formatDate(lang, b.slot.date, 'long')], [t.time, t.timeInZone(b.slot.startTime, b.timezone)]);
  if (m.deposit) rows.push([t.deposit, t.depositStates[m.deposit.status]]);
  return rows;
}

/** The self-service page at `/manage/{token}` and its writes (guest-side.md "Self-service"). */
export async function manageRoutes(app: App): Promise<void> {
  const now = () => app.ctx.clock();
  const base = (token: string) => `/manage/${encodeURIComponent(token)}`;
  const tokenOf = (request: FastifyRequest) => (request.params as { token: string }).token;

  function send(
    reply: FastifyReply,
    lang: Lang,
    title: string,
    here: { path: string; query: Record<string, string | undefined> },
    body: ReactElement,
    status = 200,
  ) {
    const html = renderPage({ lang, title, businessName: messages(lang).poweredBy, here, noindex: true }, body);
    return manageHeaders(reply.status(status)).send(html);
  }

  /** The page itself; after a refused action, with its reason beside the actions. */
  async function renderManage(
    reply: FastifyReply,
    request: FastifyRequest,
    token: string,
    extra: { done?: Done; error?: string },
    status = 200,
  ) {
    const m = await openManagePage(app.ctx.db, token, now());
    const lang = langOf(request);
    const t = messages(lang);
    const b = m.booking;
    const place = m.location;
    const address = [place.street, `${place.zip} ${place.city}`.trim()].filter(Boolean).join(', ');
    const placeName = address ? `${place.publicLocationName} (${address})` : place.publicLocationName;
    const closed = m.offer.cancelClosed;
    const reach = place.phone ? t.callToCancel(place.phone) : t.contactToCancel(placeName);
    const cancelClosed =
      closed?.kind === 'windowClosed'
        ? [t.cancelClosedUntil(instantIn(t, lang, closed.until, b.timezone)), reach]
        : closed?.kind === 'notAllowed'
          ? [t.cancelNotOnline, reach]
          : undefined;
    const path = base(token);
    return send(
      reply,
      lang,
      t.manageTitle,
      { path: `/manage/${token}`, query: {} },
      <ManageView
        t={t}
        lang={lang}
        summary={summaryOf(t, lang, m)}
        done={extra.done ? t[DONE[extra.done]] : undefined}
        error={extra.error}
        proposed={b.status === 'rescheduleProposed' && b.proposed ? when(t, lang, b.proposed.slot, b.timezone) : undefined}
        cancelHref={m.offer.cancel ? `${path}/cancel` : undefined}
        rescheduleHref={m.offer.reschedule ? link(`${path}/reschedule`, { lang }) : undefined}
        acceptAction={m.offer.acceptProposal ? `${path}/accept` : undefined}
        declineAction={m.offer.declineProposal ? `${path}/decline` : undefined}
        cancelClosed={cancelClosed}
        visitNotes={
          m.visit
            ? [m.offer.cancel ? t.visitCancelNote : undefined, m.offer.reschedule ? t.visitMoveNote : undefined].filter(
                (n): n is string => n !== undefined,
              )
            : undefined
        }
        contact={t.manageContact(placeName)}
        icsHref={`${path}/calendar.ics`}
      />,
      status,
    );
  }

  /** A refused change in words, beside the actions (409); anything else is the guest pages' error page. */
  function refusalText(t: Messages, err: unknown): string | undefined {
    if (!isAppError(err)) return undefined;
    if (err.code === 'booking.invalid_transition') return err.details?.refusal === 'windowClosed' ? t.errWindowClosed : t.errNotPossible;
    if (TIME_GONE.has(err.code)) return t.errTimeGone;
    return undefined;
  }

  /**
   * The staff member whose times the reschedule shows first: the booking's own, when they still
   * offer it; for a visit, its one staff member when every part is theirs and they still offer all.
   */
  async function ownStaff(m: ManagePage, services: ServiceRecord[]): Promise<{ id: string; name: string } | undefined> {
    const parts = m.visit?.parts ?? [m.booking];
    const id = parts[0]!.staffId;
    if (id === null || parts.some((p) => p.staffId !== id)) return undefined;
    const lists = await Promise.all(services.map((s) => pageStaff(app.ctx.db, m.page, m.location, s.id)));
    const found = lists[0]?.find((s) => s.id === id);
    return found && lists.every((l) => l.some((s) => s.id === id)) ? found : undefined;
  }

  /** Too many changes from one address: the guest pages' 429. */
  async function limited(reply: FastifyReply, request: FastifyRequest, what: 'manage' | 'hold'): Promise<boolean> {
    const wait = await overGuestLimit(app.ctx.accountLimits, request, what);
    if (wait === undefined) return false;
    sendMessage(reply.header('retry-after', String(wait * 60)), request, 429, (t) => ({
      title: t.tooManyTitle,
      text: what === 'manage' ? t.tooManyChangesText(wait) : t.tooManyText(wait),
    }));
    return true;
  }

  app.get('/manage/:token', { config: GUEST, schema: { hide: true } }, async (request, reply) => {
    const asked = field(request.query, 'done');
    const done = asked !== undefined && Object.hasOwn(DONE, asked) ? (asked as Done) : undefined;
    return renderManage(reply, request, tokenOf(request), done ? { done } : {});
  });

  app.get('/manage/:token/cancel', { config: GUEST, schema: { hide: true } }, async (request, reply) => {
    const token = tokenOf(request);
    const m = await openManagePage(app.ctx.db, token, now());
    const lang = langOf(request);
    if (!m.offer.cancel) return redirect(reply, link(base(token), { lang }));
    const t = messages(lang);
    return send(
      reply,
      lang,
      t.cancelConfirmTitle,
      { path: `/manage/${token}/cancel`, query: {} },
      <CancelConfirm
        t={t}
        lang={lang}
        summary={summaryOf(t, lang, m)}
        action={`${base(token)}/cancel`}
        backHref={link(base(token), { lang })}
      />,
    );
  });

  /** The three changes that need nothing but the link: each redirects to the page, saying what was done. */
  const simple: Array<{ path: string; done: Done; action: string; run: (token: string) => Promise<BookingRecord> }> = [
    { path: 'cancel', done: 'cancelled', action: 'booking.cancel', run: (token) => cancelAsGuest(app.ctx.db, token, now()) },
    { path: 'accept', done: 'accepted', action: 'booking.acceptProposal', run: (token) => acceptProposalAsGuest(app.ctx.db, token, now()) },
    {
      path: 'decline',
      done: 'declined',
      action: 'booking.declineProposal',
      run: (token) => declineProposalAsGuest(app.ctx.db, token, now()),
    },
  ];
  /** The audit log's entry of a guest's change (clients-and-reports.md "Audit log"). */
  const audited = (request: { id: string }, b: BookingRecord, action: string) =>
    recordGuestAction(app.ctx.db, { businessId: b.businessId, bookingId: b.id, action, requestId: request.id });
  for (const s of simple) {
    app.post(`/manage/:token/${s.path}`, { config: GUEST, schema: FORM_SCHEMA }, async (request, reply) => {
      const token = tokenOf(request);
      const lang = langOf(request);
      if (await limited(reply, request, 'manage')) return reply;
      try {
        await audited(request, await s.run(token), s.action);
      } catch (err) {
        const error = refusalText(messages(lang), err);
        if (error === undefined) throw err;
        return renderManage(reply, request, token, { error }, 409);
      }
      return redirect(reply, link(base(token), { done: s.done, lang }));
    });
  }

  app.get('/manage/:token/reschedule', { config: GUEST, schema: { hide: true } }, async (request, reply) => {
    const token = tokenOf(request);
    const m = await openManagePage(app.ctx.db, token, now());
    const lang = langOf(request);
    const t = messages(lang);
    const { location, service } = m;
    if (!m.offer.reschedule || !service) return redirect(reply, link(base(token), { lang }));
    const visit = visitServicesOf(m);
    if (m.visit && !visit) return redirect(reply, link(base(token), { lang }));
    const own = await ownStaff(m, visit ?? [service]);
    // The booking's own staff member unless the guest asked for anyone (or they no longer offer it).
    const staffKey = field(request.query, 'staff') === 'any' || !own ? 'any' : own.id;
    const at = now();
    const { today, last } = bookableDates(location, at);
    const week = weekStart(field(request.query, 'week'), today, last);
    const weekEnd = minDate(formatIsoDate(parseIsoDate(week) + 6), last);
    const staffId = staffKey === 'any' ? undefined : staffKey;
    const days = (
      await weekTimes(app.ctx.db, { location, service, visit, staffId, from: week, now: at, secret: app.ctx.serverSecret })
    ).filter((d) => d.date <= weekEnd);
    const path = `${base(token)}/reschedule`;
    const weekLink = (w: string) => link(path, { staff: staffKey, week: w, lang });
    const prev = week > today ? maxDate(formatIsoDate(parseIsoDate(week) - 7), today) : undefined;
    const next = formatIsoDate(parseIsoDate(week) + 7);
    return send(
      reply,
      lang,
      t.rescheduleTitle,
      { path: `/manage/${token}/reschedule`, query: { staff: staffKey, week } },
      <TimesStep
        t={{ ...t, stepTime: t.rescheduleTitle }}
        lang={lang}
        serviceName={(visit ?? [service]).map((s) => s.name).join(' + ')}
        visit={
          visit
            ? {
                parts: visit.map((s) => ({ name: s.name, meta: `${t.minutes(s.durationMinutes)} · ${priceText(t, lang, s)}` })),
                total: `${t.minutes(visitMinutes(visit))} · ${t.visitMoveNote}`,
              }
            : undefined
        }
        staffLabel={own && staffKey !== 'any' ? own.name : t.anyStaff}
        group={false}
        timeZone={location.timezone}
        weekFrom={week}
        weekTo={weekEnd}
        previousHref={prev ? weekLink(prev) : undefined}
        nextHref={next <= last ? weekLink(next) : undefined}
        days={days.map((d) => ({ date: d.date, times: d.times, sessions: [] }))}
        holdAction={`${base(token)}/hold`}
        hidden={{ staff: staffKey, week, lang, n: randomBytes(16).toString('base64url') }}
        gone={field(request.query, 'gone') === '1'}
        staffSwitch={
          own
            ? [
                { label: own.name, href: link(path, { staff: own.id, lang }), current: staffKey !== 'any' },
                { label: t.anyStaff, href: link(path, { staff: 'any', lang }), current: staffKey === 'any' },
              ]
            : undefined
        }
        backLink={{ href: link(base(token), { lang }), text: t.backToBooking }}
      />,
    );
  });

  app.post('/manage/:token/hold', { config: GUEST, schema: FORM_SCHEMA }, async (request, reply) => {
    const token = tokenOf(request);
    const m = await openManagePage(app.ctx.db, token, now());
    const lang = langOf(request);
    const body = request.body;
    const { location, service, page } = m;
    if (!m.offer.reschedule || !service) return redirect(reply, link(base(token), { lang }));
    const staffParam = field(body, 'staff') ?? 'any';
    const back = (gone: boolean) =>
      link(`${base(token)}/reschedule`, { staff: staffParam, week: field(body, 'week'), gone: gone ? '1' : undefined, lang });
    const date = field(body, 'date') ?? '';
    const time = field(body, 'time') ?? '';
    const visit = visitServicesOf(m);
    if ((m.visit && !visit) || !isRealDate(date) || !/^\d{2}:\d{2}$/.test(time)) return redirect(reply, back(false));
    let staffId: string | undefined;
    if (staffParam !== 'any') {
      // A visit's one staff member only: each part must be theirs.
      if (visit && (await ownStaff(m, visit))?.id !== staffParam) return redirect(reply, back(false));
      if (!(await pageStaff(app.ctx.db, page, location, service.id)).some((s) => s.id === staffParam)) return redirect(reply, back(false));
      staffId = staffParam;
    }
    if (await limited(reply, request, 'hold')) return reply;
    try {
      const nonce = field(body, 'n');
      const formKey = nonce && /^[A-Za-z0-9_-]{16,64}$/.test(nonce) ? `manage:${nonce}:${staffId ?? 'any'}:${date}:${time}` : undefined;
      const at = { page, location, staffId, date, startTime: time, now: now(), formKey };
      // A visit is held whole, by the visit search's rule, so its move keeps the parts back to back.
      const hold = visit
        ? await holdPageVisit(app.ctx.db, { ...at, services: visit })
        : await holdPageTime(app.ctx.db, { ...at, service, gate: app.ctx.bookingGate });
      const choice = signChoice(app.ctx.serverSecret, {
        k: 'hold',
        h: hold.id,
        s: service.id,
        st: staffId ?? null,
        n: hold.staffName,
        d: hold.date,
        t: hold.startTime,
        x: hold.expiresAt,
        ...(hold.parts ? { v: hold.parts.map((p) => ({ s: p.serviceId, n: p.staffName, t: p.startTime, e: p.endTime })) } : {}),
      });
      return redirect(reply, link(`${base(token)}/new-time`, { c: choice, lang }));
    } catch (err) {
      if (isAppError(err) && (TIME_GONE.has(err.code) || err.code === 'request.validation_failed')) return redirect(reply, back(true));
      throw err;
    }
  });

  /** The held time, and `Confirm new time`; shown again with the reason when the move is refused. */
  async function renderNewTime(
    reply: FastifyReply,
    request: FastifyRequest,
    token: string,
    choiceToken: string,
    error?: string,
    status = 200,
  ) {
    const m = await openManagePage(app.ctx.db, token, now());
    const lang = langOf(request);
    const t = messages(lang);
    const choice = readChoice(app.ctx.serverSecret, choiceToken);
    const first = m.visit ? m.visit.parts[0]! : m.booking;
    if (choice?.k !== 'hold' || choice.s !== first.serviceId || Boolean(m.visit) !== Boolean(choice.v))
      return redirect(reply, link(base(token), { lang }));
    const zone = m.booking.timezone;
    const partsOf = (parts: Array<{ name: string; staff: string; from: string; to: string }>) =>
      parts.map((p) => t.partLine(p.name, p.staff, p.from, p.to)).join('; ');
    const staffKey = choice.st ?? 'any';
    return send(
      reply,
      lang,
      t.newTimeTitle,
      { path: `/manage/${token}/new-time`, query: { c: choiceToken } },
      <RescheduleConfirm
        t={t}
        lang={lang}
        current={
          m.visit
            ? `${when(t, lang, first.slot, zone)} · ${partsOf(
                m.visit.parts.map((p) => ({ name: p.serviceName, staff: p.staffName ?? '', from: p.slot.startTime, to: p.slot.endTime })),
              )}`
            : when(t, lang, m.booking.slot, zone) + (m.booking.staffName ? ` · ${m.booking.staffName}` : '')
        }
        next={
          m.visit && choice.v
            ? `${when(t, lang, { date: choice.d, startTime: choice.t }, zone)} · ${partsOf(
                choice.v.map((p, i) => ({ name: m.visit!.parts[i]?.serviceName ?? '', staff: p.n, from: p.t, to: p.e })),
              )}`
            : `${when(t, lang, { date: choice.d, startTime: choice.t }, zone)} · ${choice.n}`
        }
        heldUntil={formatTimeIn(zone, new Date(choice.x))}
        action={`${base(token)}/reschedule`}
        choice={choiceToken}
        againHref={link(`${base(token)}/reschedule`, { staff: staffKey, lang })}
        backHref={link(base(token), { lang })}
        error={error}
      />,
      status,
    );
  }

  app.get('/manage/:token/new-time', { config: GUEST, schema: { hide: true } }, async (request, reply) =>
    renderNewTime(reply, request, tokenOf(request), field(request.query, 'c') ?? ''),
  );

  app.post('/manage/:token/reschedule', { config: GUEST, schema: FORM_SCHEMA }, async (request, reply) => {
    const token = tokenOf(request);
    const lang = langOf(request);
    const choiceToken = field(request.body, 'c') ?? '';
    const choice = readChoice(app.ctx.serverSecret, choiceToken);
    if (choice?.k !== 'hold') throw new AppError('request.validation_failed', 'The form is not one this page made.');
    if (await limited(reply, request, 'manage')) return reply;
    try {
      const moved = choice.v
        ? await rescheduleVisitAsGuest(app.ctx.db, token, choice.h, now())
        : await rescheduleAsGuest(app.ctx.db, token, choice.h, now());
      await audited(request, moved, 'booking.reschedule');
    } catch (err) {
      if (isAppError(err) && TIME_GONE.has(err.code)) {
        return redirect(reply, link(`${base(token)}/reschedule`, { staff: choice.st ?? 'any', gone: '1', lang }));
      }
      const error = refusalText(messages(lang), err);
      if (error === undefined) throw err;
      return renderManage(reply, request, token, { error }, 409);
    }
    return redirect(reply, link(base(token), { done: 'rescheduled', lang }));
  });

  app.get('/manage/:token/calendar.ics', { config: GUEST, schema: { hide: true } }, async (request, reply) => {
    const token = tokenOf(request);
    const { booking, location, visit } = await openManagePage(app.ctx.db, token, now());
    const ics = bookingCalendar(visit?.parts ?? booking, {
      businessName: location.publicLocationName,
      uidDomain: new URL(app.ctx.config.publicBaseUrl).hostname,
      organizerEmail: emailOf(app.ctx.config.mailFrom),
      manageUrl: `${app.ctx.config.publicBaseUrl}${base(token)}`,
      now: now(),
    });
    return reply
      .headers({
        'content-type': 'text/calendar; charset=utf-8',
        'content-disposition': `attachment; filename="booking-${booking.publicReference.replace(/[^A-Za-z0-9-]/g, '')}.ics"`,
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'x-robots-tag': 'noindex, nofollow',
      })
      .send(ics);
  });
}

/** A visit's services in order, while each still exists; undefined for a booking alone (or a visit with a deleted service). */
function visitServicesOf(m: ManagePage): ServiceRecord[] | undefined {
  if (!m.visit || m.visit.services.some((s) => s === undefined)) return undefined;
  return m.visit.services as ServiceRecord[];
}

export function emailOf(mailFrom: string): string {
  return /<([^<>]+)>/.exec(mailFrom)?.[1] ?? mailFrom;
}

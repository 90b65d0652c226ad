import { checkDetails, isHoneypotFilled, readDetailsForm } from '../../../domain/booking-page/details.ts';
import { choiceServiceIds, readChoice, readFormToken, signChoice, signDone } from '../../../domain/booking-page/tokens.ts';
import { moreParam, visitOfQuery } from '../../../domain/booking-page/visit.ts';
import type { VisitCreateBody } from '../../../use-cases/bookings/create-visit.ts';
import type { CreateBookingBody } from '../../../domain/bookings/create-input.ts';
import { AppError, isAppError } from '../../../domain/errors.ts';
import { bookOnPage, bookVisitOnPage } from '../../../use-cases/guest/book.ts';
import { holdPageTime, holdPageVisit, releasePageHold } from '../../../use-cases/guest/hold.ts';
import { pageServices, pageStaff } from '../../../use-cases/guest/page.ts';
import { weekTimes } from '../../../use-cases/guest/times.ts';
import { messages } from '../../../ui/i18n/index.ts';
import type { App } from '../../context.ts';
import { bookPath, field, framingOf, locationOf } from './context.ts';
import { renderDetails } from './details-page.tsx';
import { GUEST_LIMITS, overGuestLimit } from './guards.ts';
import { langOf, link, seeOther, sendMessage } from './kit.tsx';
import { isRealDate } from './weeks.ts';

const GUEST = { access: { surface: 'guest' as const } };

/** A form body of any fields; each is read leniently (context.ts `field`). */
const FORM_SCHEMA = { hide: true, body: { type: 'object' } };

/** A time that cannot be had any more: the guest goes back to the time step and is told so. */
const TIME_GONE = new Set([
  'booking.slot_unavailable',
  'booking.slot_no_longer_available',
  'booking.hold_expired',
  'booking.hold_mismatch',
  'booking.hold_not_found',
  'booking.session_full',
  'booking.slot_token_invalid',
  'catalog.staff_not_found',
]);

/** The page's two writes: holding a chosen time, and booking it. Both answer with a redirect (PRG). */
export async function bookingWrites(app: App): Promise<void> {
  app.post('/book/:salonSlug/:locationSlug/hold', { config: GUEST, schema: FORM_SCHEMA }, async (request, reply) => {
    const { salonSlug, locationSlug } = request.params as { salonSlug: string; locationSlug: string };
    const { page, location } = await locationOf(app, salonSlug, locationSlug);
    const lang = langOf(request);
    const base = bookPath(salonSlug, locationSlug);
    const body = request.body;
    const services = await pageServices(app.ctx.db, page, location);
    const service = services.find((s) => s.id === field(body, 'service'));
    if (!service) return seeOther(reply, framingOf(page), link(base, { lang }));
    const staffParam = field(body, 'staff');
    const week = field(body, 'week');
    const date = field(body, 'date') ?? '';
    const visit = service.bookingMode === 'groupSession' ? [service] : visitOfQuery(service, field(body, 'more'), services);
    const back = (gone: boolean) =>
      link(base, {
        service: service.id,
        staff: service.bookingMode === 'groupSession' ? undefined : staffParam || 'any',
        more: visit ? moreParam(visit.slice(1).map((s) => s.id)) : undefined,
        week,
        gone: gone ? '1' : undefined,
        lang,
      });

    if (service.bookingMode === 'groupSession') {
      // A seat is not held: the session's seats are counted when it is booked.
      const [sessionId, slotToken] = (field(body, 'session') ?? '').split(' ');
      if (!sessionId || !slotToken || !isRealDate(date)) return seeOther(reply, framingOf(page), back(false));
      // The session as the time step offered it (its start and staff for the next page); gone: say so.
      const [day] = await weekTimes(app.ctx.db, {
        location,
        service,
        staffId: undefined,
        from: date,
        days: 1,
        now: app.ctx.clock(),
        secret: app.ctx.serverSecret,
      });
      const session = day?.sessions.find((s) => s.sessionId === sessionId);
      if (!session) return seeOther(reply, framingOf(page), back(true));
      const choice = signChoice(app.ctx.serverSecret, {
        k: 'session',
        g: sessionId,
        tok: session.slotToken,
        s: service.id,
        n: session.staffName,
        d: date,
        t: session.startTime,
      });
      return seeOther(reply, framingOf(page), link(`${base}/details`, { c: choice, lang }));
    }

    const time = field(body, 'time') ?? '';
    if (!visit || !isRealDate(date) || !/^\d{2}:\d{2}$/.test(time)) return seeOther(reply, framingOf(page), back(false));
    let staffId: string | undefined;
    if (staffParam && staffParam !== 'any') {
      if (!(await pageStaff(app.ctx.db, page, location, service.id)).some((s) => s.id === staffParam))
        return seeOther(reply, framingOf(page), back(false));
      staffId = staffParam;
    }
    const wait = await overGuestLimit(app.ctx.accountLimits, request, 'hold');
    if (wait !== undefined) return tooMany(reply, request, wait);
    try {
      const nonce = field(body, 'n');
      const formKey = nonce && /^[A-Za-z0-9_-]{16,64}$/.test(nonce) ? `${nonce}:${staffId ?? 'any'}:${date}:${time}` : undefined;
      const at = { page, location, staffId, date, startTime: time, now: app.ctx.clock(), formKey };
      const hold =
        visit.length > 1
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
      return seeOther(reply, framingOf(page), link(`${base}/details`, { c: choice, lang }));
    } catch (err) {
      if (isAppError(err) && (TIME_GONE.has(err.code) || err.code === 'request.validation_failed'))
        return seeOther(reply, framingOf(page), back(true));
      throw err;
    }
  });

  app.post('/book/:salonSlug/:locationSlug/release', { config: GUEST, schema: FORM_SCHEMA }, async (request, reply) => {
    const { salonSlug, locationSlug } = request.params as { salonSlug: string; locationSlug: string };
    const { page } = await locationOf(app, salonSlug, locationSlug);
    const lang = langOf(request);
    const choice = readChoice(app.ctx.serverSecret, field(request.body, 'c') ?? '');
    const base = bookPath(salonSlug, locationSlug);
    if (!choice) return seeOther(reply, framingOf(page), link(base, { lang }));
    if (choice.k === 'hold') await releasePageHold(app.ctx.db, page.business.id, choice.h);
    const staff = choice.k === 'hold' ? (choice.st ?? 'any') : undefined;
    const more = moreParam(choiceServiceIds(choice).slice(1));
    return seeOther(reply, framingOf(page), link(base, { service: choice.s, staff, more, week: field(request.body, 'week'), lang }));
  });

  app.post('/book/:salonSlug/:locationSlug/book', { config: GUEST, schema: FORM_SCHEMA }, async (request, reply) => {
    const { salonSlug, locationSlug } = request.params as { salonSlug: string; locationSlug: string };
    const { page, location } = await locationOf(app, salonSlug, locationSlug);
    const lang = langOf(request);
    const t = messages(lang);
    const base = bookPath(salonSlug, locationSlug);
    const body = request.body;
    const choiceToken = field(body, 'c') ?? '';
    const choice = readChoice(app.ctx.serverSecret, choiceToken);
    const formToken = field(body, 't') ?? '';
    const formKey = readFormToken(app.ctx.serverSecret, formToken, choiceToken);
    const offered = choice ? await pageServices(app.ctx.db, page, location) : [];
    const found = choice ? choiceServiceIds(choice).map((id) => offered.find((s) => s.id === id)) : [];
    const service = found[0];
    if (!choice || !formKey || !service || found.some((s) => s === undefined))
      throw new AppError('request.validation_failed', 'The form is not one this page made.');
    const visit = found as NonNullable<(typeof found)[number]>[];
    const staffKey = choice.k === 'hold' ? (choice.st ?? 'any') : undefined;
    const more = moreParam(visit.slice(1).map((s) => s.id));
    const gone = () => seeOther(reply, framingOf(page), link(base, { service: service.id, staff: staffKey, more, gone: '1', lang }));

    const form = readDetailsForm(body as Record<string, unknown>);
    // A robot filled the field no person sees: nothing is made, and it is told nothing useful.
    if (isHoneypotFilled(form)) return sendMessage(reply, request, 200, (m) => ({ title: m.neutralTitle, text: m.neutralText }));
    const render = (errors: ReturnType<typeof checkDetails>, formError?: string, status = 400) =>
      renderDetails(app, reply, {
        page,
        location,
        service,
        visit,
        choice,
        choiceToken,
        formToken,
        lang,
        values: form,
        errors,
        formError,
        status,
      });
    const errors = checkDetails(form, { deposit: service.depositRequired, onSite: service.onSite });
    if (Object.keys(errors).length > 0) return render(errors);

    const now = app.ctx.clock();
    const settings = page.settings.bookingPage;
    const createBody: CreateBookingBody = {
      salonSlug: page.business.slug,
      locationSlug: location.slug,
      serviceId: service.id,
      expectedPricingVersion: field(body, 'pv') || undefined,
      ...(choice.k === 'hold'
        ? { staffId: choice.st ?? undefined, slot: { date: choice.d, startTime: choice.t }, holdId: choice.h }
        : { sessionId: choice.g, slotToken: choice.tok }),
      guest: { name: form.name.trim(), phone: form.phone.trim(), email: form.email.trim() },
      consent: {
        privacyNoticeVersion: settings.privacyNoticeVersion,
        termsVersion: settings.termsVersion,
        locale: lang,
        acceptedAt: now.toISOString(),
        policyConsentGiven: true,
      },
      ...(service.depositRequired
        ? { depositTermsAcceptance: { termsVersion: field(body, 'dv') ?? '', acceptedAt: now.toISOString() } }
        : {}),
      ...(form.note.trim() ? { note: form.note.trim() } : {}),
      ...(service.onSite ? { serviceLocation: { address: form.address.trim() } } : {}),
    };

    // Counted only when this form is new: a reload or double submit of one form is its own booking.
    let wait: number | undefined;
    const admit = async () => {
      wait = await overGuestLimit(app.ctx.accountLimits, request, 'book');
      return wait === undefined;
    };
    try {
      const { deposits, serverSecret: secret, bookingGate: gate } = app.ctx;
      const ctx = { businessId: page.business.id, salonSlug: page.business.slug, location, service, deposits, now, secret, gate };
      const outcome = await app.ctx.createLimit.run(page.business.id, () => {
        if (choice.k !== 'hold' || !choice.v) return bookOnPage(app.ctx.db, ctx, formKey, createBody, admit);
        // A visit: every part through POST /v1/bookings' visit create, with the held parts.
        const versions = (field(body, 'pv') ?? '').split(',');
        const { serviceId: _first, staffId: _staff, expectedPricingVersion: _pv, ...common } = createBody;
        const visitBody: VisitCreateBody = {
          ...common,
          visit: visit.map((s, i) => ({
            serviceId: s.id,
            staffId: choice.st ?? undefined,
            expectedPricingVersion: versions[i] || undefined,
          })),
        };
        const visitCtx = { businessId: page.business.id, salonSlug: page.business.slug, location, services: visit, now };
        return bookVisitOnPage(app.ctx.db, visitCtx, formKey, visitBody, admit);
      });
      if (outcome.kind === 'limited') return tooMany(reply, request, wait ?? 60);
      if (outcome.kind === 'inProgress') {
        return sendMessage(reply.header('retry-after', '2'), request, 503, (m) => ({ title: m.inProgressTitle, text: m.inProgressText }));
      }
      const done = signDone(
        app.ctx.serverSecret,
        outcome.booked.depositPaymentUrl
          ? { b: outcome.booked.bookingId, p: outcome.booked.depositPaymentUrl }
          : { b: outcome.booked.bookingId },
      );
      return seeOther(reply, framingOf(page), link(`${base}/done`, { b: done, lang }));
    } catch (err) {
      if (!isAppError(err)) throw err;
      if (TIME_GONE.has(err.code)) return gone();
      if (err.code === 'booking.deposit_terms_changed' || err.code === 'booking.deposit_terms_required')
        return render({}, t.errDepositTermsChanged, 409);
      if (err.code === 'booking.service_pricing_changed') return render({}, t.errPriceChanged, 409);
      if (err.code === 'request.validation_failed') {
        const path = String((err.details?.issues as Array<{ path: string }> | undefined)?.[0]?.path ?? '');
        if (path.includes('phone')) return render({ phone: 'invalid' });
        if (path.includes('email')) return render({ email: 'invalid' });
        if (path.includes('name')) return render({ name: 'tooLong' });
      }
      throw err;
    }
  });
}

function tooMany(reply: Parameters<typeof sendMessage>[0], request: Parameters<typeof sendMessage>[1], minutes: number) {
  return sendMessage(reply.header('retry-after', String(minutes * 60)), request, 429, (t) => ({
    title: t.tooManyTitle,
    text: t.tooManyText(minutes),
  }));
}

export { GUEST_LIMITS };

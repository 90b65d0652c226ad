import type { FastifyReply, FastifyRequest } from 'fastify';
import { signDone } from '../../../domain/booking-page/tokens.ts';
import type { CreateBookingBody } from '../../../domain/bookings/create-input.ts';
import { effectiveDepositMinor } from '../../../domain/deposits/amount.ts';
import { isAppError } from '../../../domain/errors.ts';
import { formatIsoDate, parseIsoDate } from '../../../domain/time/calendar.ts';
import { checkJoin, isJoinHoneypotFilled, type JoinErrors, type JoinForm, readJoinForm } from '../../../domain/waitlist/join.ts';
import { bookOnPage } from '../../../use-cases/guest/book.ts';
import { type BookingPage, pageServices, pageStaff } from '../../../use-cases/guest/page.ts';
import { bookableDates } from '../../../use-cases/guest/times.ts';
import { claimContext, finishClaim } from '../../../use-cases/waitlist/claim.ts';
import { joinWaitlist } from '../../../use-cases/waitlist/join.ts';
import { entryOfWithdrawLink, withdrawEntry } from '../../../use-cases/waitlist/withdraw.ts';
import { formatDate, formatMoney, formatTimeIn } from '../../../ui/format.ts';
import { messages, type Lang } from '../../../ui/i18n/index.ts';
import { waitlistMessages } from '../../../ui/i18n/waitlist.ts';
import { MessageView } from '../../../ui/booking/done.tsx';
import { ClaimStep, JoinStep, WithdrawStep } from '../../../ui/booking/waitlist.tsx';
import type { LocationRecord, ServiceRecord } from '../../../domain/catalog-records.ts';
import type { App } from '../../context.ts';
import { bookPath, field, frameOf, framingOf, locationOf } from './context.ts';
import { overGuestLimit } from './guards.ts';
import { langOf, link, pageHeaders, renderPage, seeOther, sendMessage } from './kit.tsx';

const GUEST = { access: { surface: 'guest' as const } };
const FORM_SCHEMA = { hide: true, body: { type: 'object' } };
/** A link page: no search engine lists it, and no address of it leaves in a Referer. */
const LINK_PAGE = { referrer: 'no-referrer' } as const;

/**
 * The waitlist's guest pages (guest-side.md "Waitlist", docs/waitlist.md): joining from the time
 * step, the claim link of an offer, and the withdraw link of an entry.
 */
export async function waitlistPages(app: App): Promise<void> {
  app.get('/book/:salonSlug/:locationSlug/waitlist', { config: GUEST, schema: { hide: true } }, async (request, reply) => {
    const found = await joinTarget(app, request);
    if (!found) return notFound(reply, request);
    const { page, location, service, staff, base } = found;
    const { today, last } = bookableDates(location, app.ctx.clock());
    const week = field(request.query, 'week');
    const from = week && /^\d{4}-\d{2}-\d{2}$/.test(week) && week >= today && week <= last ? week : today;
    const to = minDate(formatIsoDate(parseIsoDate(from) + 6), last);
    const staffParam = field(request.query, 'staff');
    const values: JoinForm = {
      name: '',
      phone: '',
      email: '',
      from,
      to,
      earliest: '09:00',
      latest: '17:00',
      staff: staffParam && staff.some((s) => s.id === staffParam) ? staffParam : 'any',
      website: '',
    };
    return renderJoin(reply, request, { page, location, service, staff, base, values, errors: {}, week, status: 200 });
  });

  app.post('/book/:salonSlug/:locationSlug/waitlist', { config: GUEST, schema: FORM_SCHEMA }, async (request, reply) => {
    const found = await joinTarget(app, request, request.body);
    if (!found) return notFound(reply, request);
    const { page, location, service, staff, base } = found;
    const lang = langOf(request);
    const form = readJoinForm(request.body as Record<string, unknown>);
    if (isJoinHoneypotFilled(form)) return sendMessage(reply, request, 200, (m) => ({ title: m.neutralTitle, text: m.neutralText }));
    const { today, last } = bookableDates(location, app.ctx.clock());
    const errors = checkJoin(form, { today, lastDate: last, staffIds: staff.map((s) => s.id) });
    const week = field(request.body, 'week');
    if (Object.keys(errors).length > 0) {
      return renderJoin(reply, request, { page, location, service, staff, base, values: form, errors, week, status: 400 });
    }
    const wait = await overGuestLimit(app.ctx.accountLimits, request, 'waitlist');
    if (wait !== undefined) {
      return sendMessage(reply.header('retry-after', String(wait * 60)), request, 429, (t) => ({
        title: t.tooManyTitle,
        text: t.tooManyText(wait),
      }));
    }
    await joinWaitlist(app.ctx.db, { businessId: page.business.id, location, service, form, lang, secret: app.ctx.serverSecret });
    return seeOther(reply, framingOf(page), link(`${base}/waitlist/joined`, { lang }));
  });

  app.get('/book/:salonSlug/:locationSlug/waitlist/joined', { config: GUEST, schema: { hide: true } }, async (request, reply) => {
    const { salonSlug, locationSlug } = request.params as { salonSlug: string; locationSlug: string };
    const { page } = await locationOf(app, salonSlug, locationSlug);
    const lang = langOf(request);
    const w = waitlistMessages(lang);
    const base = bookPath(salonSlug, locationSlug);
    const html = renderPage(
      frameOf(page, lang, w.joinedTitle, { path: `${base}/waitlist/joined`, query: {} }),
      <MessageView title={w.joinedTitle} text={w.joinedText} link={{ href: link(base, { lang }), text: w.backToBooking }} />,
    );
    return pageHeaders(reply, framingOf(page)).send(html);
  });

  app.get('/claim/:token', { config: GUEST, schema: { hide: true } }, async (request, reply) =>
    claimPage(app, request, reply, { terms: false, depositTerms: false }),
  );

  app.post('/claim/:token', { config: GUEST, schema: FORM_SCHEMA }, async (request, reply) => {
    const { token } = request.params as { token: string };
    const c = await claimContext(app.ctx.db, token, app.ctx.caches);
    if (!c) return linkMessage(reply, request, 404, 'linkNotFound');
    if (c.offer.status === 'claimed' && c.offer.bookingId) return toDone(app, reply, request, c, c.offer.bookingId);
    if (!c.claimable) return linkMessage(reply, request, 410, 'offerEnded');
    const terms = field(request.body, 'terms') !== undefined;
    const depositTerms = !c.service.depositRequired || field(request.body, 'depositTerms') !== undefined;
    if (!terms || !depositTerms) return claimPage(app, request, reply, { terms: !terms, depositTerms: !depositTerms });
    const lang = langOf(request);
    const now = app.ctx.clock();
    const settings = c.page.settings.bookingPage;
    const body: CreateBookingBody = {
      salonSlug: c.page.business.slug,
      locationSlug: c.location.slug,
      serviceId: c.service.id,
      staffId: c.offer.staffId,
      slot: { date: c.offer.date, startTime: c.offer.startTime },
      holdId: c.offer.holdId,
      guest: { name: c.entry.name, phone: c.entry.phone, email: c.entry.email },
      consent: {
        privacyNoticeVersion: settings.privacyNoticeVersion,
        termsVersion: settings.termsVersion,
        locale: lang,
        acceptedAt: now.toISOString(),
        policyConsentGiven: true,
      },
      ...(c.service.depositRequired
        ? { depositTermsAcceptance: { termsVersion: c.service.depositTermsVersion ?? '', acceptedAt: now.toISOString() } }
        : {}),
    };
    try {
      const { deposits, serverSecret: secret, bookingGate: gate } = app.ctx;
      const ctx = {
        businessId: c.page.business.id,
        salonSlug: c.page.business.slug,
        location: c.location,
        service: c.service,
        deposits,
        now,
        secret,
        gate,
      };
      // One booking per offer, however often the form is sent: the offer is the form's key.
      const outcome = await bookOnPage(app.ctx.db, ctx, `claim:${c.offer.id}`, body);
      if (outcome.kind !== 'booked') {
        return sendMessage(reply.header('retry-after', '2'), request, 503, (m) => ({ title: m.inProgressTitle, text: m.inProgressText }));
      }
      await finishClaim(app.ctx.db, c.offer.id, outcome.booked.bookingId);
      return toDone(app, reply, request, c, outcome.booked.bookingId, outcome.booked.depositPaymentUrl);
    } catch (err) {
      if (isAppError(err) && (err.code.startsWith('booking.hold') || err.code.startsWith('booking.slot'))) {
        return linkMessage(reply, request, 410, 'offerEnded');
      }
      throw err;
    }
  });

  app.get('/waitlist/withdraw/:token', { config: GUEST, schema: { hide: true } }, async (request, reply) => {
    const { token } = request.params as { token: string };
    const entry = await entryOfWithdrawLink(app.ctx.db, token);
    if (!entry) return linkMessage(reply, request, 404, 'linkNotFound');
    if (entry.status !== 'waiting' && entry.status !== 'offered') return linkMessage(reply, request, 200, 'ended');
    const lang = langOf(request);
    const w = waitlistMessages(lang);
    const html = renderPage(
      {
        lang,
        title: w.withdrawTitle,
        businessName: messages(lang).poweredBy,
        here: { path: request.url.split('?', 1)[0]!, query: {} },
        noindex: true,
      },
      <WithdrawStep
        w={w}
        lang={lang}
        text={w.withdrawText(entry.serviceName, formatDate(lang, entry.fromDate, 'short'), formatDate(lang, entry.toDate, 'short'))}
        action={request.url.split('?', 1)[0]!}
      />,
    );
    return pageHeaders(reply, { embedOrigins: [] }, LINK_PAGE.referrer).send(html);
  });

  app.post('/waitlist/withdraw/:token', { config: GUEST, schema: FORM_SCHEMA }, async (request, reply) => {
    const { token } = request.params as { token: string };
    const outcome = await withdrawEntry(app.ctx.db, token, app.ctx.clock());
    if (!outcome) return linkMessage(reply, request, 404, 'linkNotFound');
    return linkMessage(reply, request, 200, outcome.withdrawn ? 'withdrawn' : 'ended');
  });
}

async function claimPage(
  app: App,
  request: FastifyRequest,
  reply: FastifyReply,
  missing: { terms: boolean; depositTerms: boolean },
): Promise<FastifyReply> {
  const { token } = request.params as { token: string };
  const c = await claimContext(app.ctx.db, token, app.ctx.caches);
  if (!c) return linkMessage(reply, request, 404, 'linkNotFound');
  if (c.offer.status === 'claimed') return linkMessage(reply, request, 200, 'offerBooked');
  if (!c.claimable) return linkMessage(reply, request, 410, 'offerEnded');
  const lang = langOf(request);
  const t = messages(lang);
  const w = waitlistMessages(lang);
  const path = request.url.split('?', 1)[0]!;
  const summary: Array<[string, string]> = [[t.service, c.service.name]];
  if (c.entry.staffId !== null) summary.push([t.staff, c.staffName]);
  summary.push(
    [t.date, formatDate(lang, c.offer.date, 'long')],
    [t.time, c.offer.startTime],
    [t.location, c.location.publicLocationName],
    [w.name, c.entry.name],
  );
  const html = renderPage(
    frameOf(c.page, lang, w.claimTitle, { path, query: {} }, true),
    <ClaimStep
      w={w}
      t={t}
      summary={summary}
      heldUntil={formatTimeIn(c.location.timezone, c.offer.expiresAt)}
      action={path}
      lang={lang}
      termsError={missing.terms}
      deposit={
        c.service.depositRequired
          ? {
              explained: t.depositExplained(formatMoney(lang, effectiveDepositMinor(c.service) ?? 0, c.service.currency)),
              error: missing.depositTerms,
            }
          : undefined
      }
      termsUrl={c.page.settings.bookingPage.termsUrl}
      privacyUrl={c.page.settings.bookingPage.privacyUrl}
    />,
  );
  return pageHeaders(reply.status(missing.terms || missing.depositTerms ? 400 : 200), { embedOrigins: [] }, LINK_PAGE.referrer).send(html);
}

function toDone(
  app: App,
  reply: FastifyReply,
  request: FastifyRequest,
  c: { page: BookingPage; location: LocationRecord },
  bookingId: string,
  depositPaymentUrl?: string,
): FastifyReply {
  const done = signDone(app.ctx.serverSecret, depositPaymentUrl ? { b: bookingId, p: depositPaymentUrl } : { b: bookingId });
  const base = bookPath(c.page.business.slug, c.location.slug);
  return seeOther(reply, framingOf(c.page), link(`${base}/done`, { b: done, lang: langOf(request) }));
}

type LinkMessage = 'linkNotFound' | 'offerEnded' | 'offerBooked' | 'withdrawn' | 'ended';

/** A claim or withdraw link's answer in words, not indexed, sent with no Referer. */
function linkMessage(reply: FastifyReply, request: FastifyRequest, status: number, what: LinkMessage): FastifyReply {
  const lang: Lang = langOf(request);
  const w = waitlistMessages(lang);
  const words = {
    linkNotFound: [w.linkNotFoundTitle, w.linkNotFoundText],
    offerEnded: [w.offerEndedTitle, w.offerEndedText],
    offerBooked: [w.offerBookedTitle, w.offerBookedText],
    withdrawn: [w.withdrawnTitle, w.withdrawnText],
    ended: [w.endedTitle, w.endedText],
  }[what];
  const html = renderPage(
    {
      lang,
      title: words[0]!,
      businessName: messages(lang).poweredBy,
      here: { path: request.url.split('?', 1)[0]!, query: {} },
      noindex: true,
    },
    <MessageView title={words[0]!} text={words[1]!} />,
  );
  return pageHeaders(reply.status(status), { embedOrigins: [] }, LINK_PAGE.referrer).send(html);
}

function notFound(reply: FastifyReply, request: FastifyRequest): FastifyReply {
  return sendMessage(reply, request, 404, (t) => ({ title: t.notFoundTitle, text: t.notFoundText }));
}

/** The service (and its staff) a join is for; undefined when the page has no waitlist for it. */
async function joinTarget(
  app: App,
  request: FastifyRequest,
  source: unknown = request.query,
): Promise<
  | { page: BookingPage; location: LocationRecord; service: ServiceRecord; staff: Array<{ id: string; name: string }>; base: string }
  | undefined
> {
  const { salonSlug, locationSlug } = request.params as { salonSlug: string; locationSlug: string };
  const { page, location } = await locationOf(app, salonSlug, locationSlug);
  if (!page.settings.waitlist.enabled) return undefined;
  const service = (await pageServices(app.ctx.db, page, location)).find((s) => s.id === field(source, 'service'));
  if (!service || service.bookingMode === 'groupSession') return undefined;
  const staff = (await pageStaff(app.ctx.db, page, location, service.id)).map((s) => ({ id: s.id, name: s.name }));
  return { page, location, service, staff, base: bookPath(salonSlug, locationSlug) };
}

function renderJoin(
  reply: FastifyReply,
  request: FastifyRequest,
  r: {
    page: BookingPage;
    location: LocationRecord;
    service: ServiceRecord;
    staff: Array<{ id: string; name: string }>;
    base: string;
    values: JoinForm;
    errors: JoinErrors;
    week: string | undefined;
    status: number;
  },
): FastifyReply {
  const lang = langOf(request);
  const w = waitlistMessages(lang);
  const t = messages(lang);
  const staffKey = field(request.query, 'staff') ?? (r.values.staff || 'any');
  const html = renderPage(
    frameOf(r.page, lang, w.joinTitle, { path: `${r.base}/waitlist`, query: { service: r.service.id, staff: staffKey, week: r.week } }),
    <JoinStep
      w={w}
      t={t}
      serviceName={r.service.name}
      action={`${r.base}/waitlist`}
      hidden={{ service: r.service.id, lang, ...(r.week ? { week: r.week } : {}) }}
      staff={r.staff}
      values={r.values}
      errors={r.errors}
      backHref={link(r.base, { service: r.service.id, staff: staffKey, week: r.week, lang })}
    />,
  );
  return pageHeaders(reply.status(r.status), framingOf(r.page)).send(html);
}

function minDate(a: string, b: string): string {
  return a < b ? a : b;
}

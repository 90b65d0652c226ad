import type { FastifyReply } from 'fastify';
import type { Choice } from '../../../domain/booking-page/tokens.ts';
import type { DetailsErrors, DetailsForm } from '../../../domain/booking-page/details.ts';
import type { LocationRecord, ServiceRecord } from '../../../domain/catalog-records.ts';
import { effectiveDepositMinor } from '../../../domain/deposits/amount.ts';
import { visitMinutes, visitPrice } from '../../../domain/booking-page/visit.ts';
import type { BookingPage } from '../../../use-cases/guest/page.ts';
import { priceText } from '../../../ui/booking/choose.tsx';
import { DetailsStep } from '../../../ui/booking/details.tsx';
import { formatDate, formatMoney, formatTimeIn } from '../../../ui/format.ts';
import { type Lang, messages } from '../../../ui/i18n/index.ts';
import type { App } from '../../context.ts';
import { bookPath, frameOf, framingOf } from './context.ts';
import { pageHeaders, renderPage } from './kit.tsx';

export function emptyDetails(): DetailsForm {
  return { name: '', phone: '', email: '', note: '', address: '', terms: false, depositTerms: false, website: '' };
}

export interface DetailsRender {
  page: BookingPage;
  location: LocationRecord;
  service: ServiceRecord;
  /** every service of the choice in order (one, or a visit's parts) */
  visit: ServiceRecord[];
  choice: Choice;
  choiceToken: string;
  formToken: string;
  lang: Lang;
  values: DetailsForm;
  errors: DetailsErrors;
  formError?: string | undefined;
  status?: number;
}

/** Step 5, first shown (GET) or shown again with its problems (the POST that found them). */
export function renderDetails(app: App, reply: FastifyReply, r: DetailsRender): FastifyReply {
  const { page, location, service, choice, lang } = r;
  const t = messages(lang);
  const base = bookPath(page.business.slug, location.slug);
  const parts = choice.k === 'hold' ? choice.v : undefined;
  const summary: Array<[string, string]> = parts
    ? [
        ...parts.map((p, i): [string, string] => [t.partLabel(i + 1), t.partLine(r.visit[i]?.name ?? '', p.n, p.t, p.e)]),
        [t.date, formatDate(lang, choice.d, 'long')],
        [t.visitTotal, `${t.minutes(visitMinutes(r.visit))} · ${priceText(t, lang, visitPrice(r.visit))}`],
        [t.location, location.publicLocationName],
      ]
    : [
        [t.service, service.name],
        [t.staff, choice.n],
        [t.date, formatDate(lang, choice.d, 'long')],
        [t.time, choice.t],
        [t.price, priceText(t, lang, service)],
        [t.location, location.publicLocationName],
      ];
  const held = choice.k === 'hold' ? new Date(choice.x) : undefined;
  const depositMinor = service.depositRequired ? effectiveDepositMinor(service) : null;
  const here = { path: `${base}/details`, query: { c: r.choiceToken } };
  const html = renderPage(
    frameOf(page, lang, t.stepDetails, here, true),
    <DetailsStep
      t={t}
      summary={summary}
      heldUntil={held ? t.heldUntil(formatTimeIn(location.timezone, held)) : undefined}
      heldUntilIso={held?.toISOString()}
      action={`${base}/book`}
      hidden={{
        c: r.choiceToken,
        t: r.formToken,
        lang,
        // a visit's parts' versions in order, so a price changed since the time step is said, not booked
        pv: r.visit.map((s) => s.pricingVersion).join(','),
        dv: service.depositTermsVersion ?? '',
      }}
      values={r.values}
      errors={r.errors}
      formError={r.formError}
      onSite={service.onSite}
      deposit={service.depositRequired && depositMinor !== null ? formatMoney(lang, depositMinor, service.currency) : undefined}
      termsUrl={page.settings.bookingPage.termsUrl}
      privacyUrl={page.settings.bookingPage.privacyUrl}
      changeTime={{ action: `${base}/release`, choice: r.choiceToken, lang }}
    />,
  );
  void app;
  return pageHeaders(reply.status(r.status ?? 200), framingOf(page)).send(html);
}

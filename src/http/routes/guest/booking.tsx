import { randomBytes } from 'node:crypto';
import { choiceServiceIds, readChoice, formKeyOf, signFormToken } from '../../../domain/booking-page/tokens.ts';
import { addableServices, moreParam, visitMinutes, visitOfQuery, visitPrice } from '../../../domain/booking-page/visit.ts';
import { emptyDetails } from './details-page.tsx';
import type { ServiceRecord } from '../../../domain/catalog-records.ts';
import { formatIsoDate, parseIsoDate } from '../../../domain/time/calendar.ts';
import { pageServices, pageStaff } from '../../../use-cases/guest/page.ts';
import { bookableDates, weekTimes } from '../../../use-cases/guest/times.ts';
import { LocationsStep, priceText, ServicesStep, StaffStep } from '../../../ui/booking/choose.tsx';
import { AddServiceStep } from '../../../ui/booking/visit.tsx';
import { TimesStep } from '../../../ui/booking/times.tsx';
import { messages } from '../../../ui/i18n/index.ts';
import { waitlistMessages } from '../../../ui/i18n/waitlist.ts';
import type { App } from '../../context.ts';
import { bookPath, field, frameOf, framingOf, locationOf, pageOf } from './context.ts';
import { renderDetails } from './details-page.tsx';
import { maxDate, minDate, weekStart } from './weeks.ts';
import { langOf, link, pageHeaders, renderPage, seeOther } from './kit.tsx';

const GUEST = { access: { surface: 'guest' as const } };

/** The booking page's GET steps: each a plain link with its state in the query (guest-side.md). */
export async function bookingSteps(app: App): Promise<void> {
  app.get('/book/:salonSlug', { config: GUEST, schema: { hide: true } }, async (request, reply) => {
    const { salonSlug } = request.params as { salonSlug: string };
    const page = await pageOf(app, salonSlug);
    const lang = langOf(request);
    const langParam = field(request.query, 'lang') === undefined ? undefined : lang;
    // One bookable location: straight to it.
    if (page.locations.length === 1)
      return seeOther(reply, framingOf(page), link(bookPath(salonSlug, page.locations[0]!.slug), { lang: langParam }));
    const t = messages(lang);
    const html = renderPage(
      frameOf(page, lang, t.stepLocation, { path: bookPath(salonSlug), query: {} }),
      <LocationsStep
        t={t}
        introText={page.settings.bookingPage.introText}
        locations={page.locations.map((l) => ({
          name: l.publicLocationName,
          address: [l.street, `${l.zip} ${l.city}`.trim()].filter(Boolean).join(', '),
          href: link(bookPath(salonSlug, l.slug), { lang: langParam }),
        }))}
      />,
    );
    return pageHeaders(reply, framingOf(page)).send(html);
  });

  app.get('/book/:salonSlug/:locationSlug', { config: GUEST, schema: { hide: true } }, async (request, reply) => {
    const { salonSlug, locationSlug } = request.params as { salonSlug: string; locationSlug: string };
    const { page, location } = await locationOf(app, salonSlug, locationSlug);
    const lang = langOf(request);
    const langParam = field(request.query, 'lang') === undefined ? undefined : lang;
    const t = messages(lang);
    const base = bookPath(salonSlug, locationSlug);
    const services = await pageServices(app.ctx.db, page, location);
    const serviceId = field(request.query, 'service');
    const service = serviceId === undefined ? undefined : services.find((s) => s.id === serviceId);
    const send = (title: string, query: Record<string, string | undefined>, body: React.ReactElement) =>
      pageHeaders(reply, framingOf(page)).send(renderPage(frameOf(page, lang, title, { path: base, query }), body));

    if (!service) {
      if (serviceId !== undefined) return seeOther(reply, framingOf(page), link(base, { lang: langParam }));
      return send(
        t.stepService,
        {},
        <ServicesStep
          t={t}
          lang={lang}
          locationName={location.publicLocationName}
          introText={page.settings.bookingPage.introText}
          services={services.map((s) => serviceChoice(s, link(base, { service: s.id, lang: langParam })))}
          backHref={page.locations.length > 1 ? link(bookPath(salonSlug), { lang: langParam }) : undefined}
        />,
      );
    }

    const group = service.bookingMode === 'groupSession';
    const staffParam = field(request.query, 'staff');
    const staff = group ? [] : await pageStaff(app.ctx.db, page, location, service.id);
    if (!group && staffParam === undefined) {
      // Back from a visit's time step: only those who perform every part (each part is theirs).
      const asked = visitOfQuery(service, field(request.query, 'more'), services) ?? [service];
      const lists = await Promise.all(asked.slice(1).map((s) => pageStaff(app.ctx.db, page, location, s.id)));
      const offered = staff.filter((m) => lists.every((l) => l.some((x) => x.id === m.id)));
      return send(
        t.stepStaff,
        { service: service.id },
        <StaffStep
          t={t}
          serviceName={service.name}
          anyHref={link(base, { service: service.id, staff: 'any', more: field(request.query, 'more'), lang: langParam })}
          staff={offered.map((s) => ({
            name: s.name,
            href: link(base, { service: service.id, staff: s.id, more: field(request.query, 'more'), lang: langParam }),
          }))}
          backHref={link(base, { lang: langParam })}
        />,
      );
    }
    const chosen = group || staffParam === 'any' ? undefined : staff.find((s) => s.id === staffParam);
    if (!group && staffParam !== 'any' && !chosen)
      return seeOther(reply, framingOf(page), link(base, { service: service.id, lang: langParam }));

    const staffKey = group ? undefined : (chosen?.id ?? 'any');
    // A visit (salon-scheduling.md "Visits"): the later services in the query, as every other step.
    const more = field(request.query, 'more');
    const visit = group ? [service] : visitOfQuery(service, more, services);
    const performsAll =
      visit === undefined || chosen === undefined
        ? true
        : (await Promise.all(visit.slice(1).map((s) => pageStaff(app.ctx.db, page, location, s.id)))).every((list) =>
            list.some((s) => s.id === chosen.id),
          );
    if (!visit || !performsAll)
      return seeOther(reply, framingOf(page), link(base, { service: service.id, staff: staffKey, lang: langParam }));
    const moreKey = moreParam(visit.slice(1).map((s) => s.id));
    const stepLink = (q: Record<string, string | undefined>) =>
      link(base, { service: service.id, staff: staffKey, more: moreKey, ...q, lang: langParam });

    if (field(request.query, 'add') === '1') {
      // With one staff member asked for, every part is theirs: only what they perform is offered.
      let addable = addableServices(visit, services);
      if (chosen) {
        const lists = await Promise.all(addable.map((s) => pageStaff(app.ctx.db, page, location, s.id)));
        addable = addable.filter((_, i) => lists[i]!.some((s) => s.id === chosen.id));
      }
      return send(
        t.stepAddService,
        { service: service.id, staff: staffKey, more: moreKey, add: '1' },
        <AddServiceStep
          t={t}
          lang={lang}
          chosen={visit.map((s) => s.name).join(' + ')}
          services={addable.map((s) => serviceChoice(s, stepLink({ more: moreParam([...visit.slice(1).map((v) => v.id), s.id]) })))}
          backHref={stepLink({})}
        />,
      );
    }

    const now = app.ctx.clock();
    const { today, last } = bookableDates(location, now);
    const week = weekStart(field(request.query, 'week'), today, last);
    const weekEnd = minDate(formatIsoDate(parseIsoDate(week) + 6), last);
    const days = (
      await weekTimes(app.ctx.db, {
        location,
        service,
        visit,
        staffId: chosen?.id,
        from: week,
        now,
        secret: app.ctx.serverSecret,
        cache: page.cache,
      })
    ).filter((d) => d.date <= weekEnd);
    const weekLink = (w: string) => stepLink({ week: w });
    const prev = week > today ? maxDate(formatIsoDate(parseIsoDate(week) - 7), today) : undefined;
    const next = formatIsoDate(parseIsoDate(week) + 7);
    const isVisit = visit.length > 1;
    const without = (i: number) => {
      const rest = visit.filter((_, j) => j !== i);
      return link(base, { service: rest[0]!.id, staff: staffKey, more: moreParam(rest.slice(1).map((s) => s.id)), week, lang: langParam });
    };
    return send(
      t.stepTime,
      { service: service.id, staff: staffKey, more: moreKey, week },
      <TimesStep
        t={t}
        lang={lang}
        serviceName={visit.map((s) => s.name).join(' + ')}
        staffLabel={chosen?.name ?? t.anyStaff}
        group={group}
        timeZone={location.timezone}
        weekFrom={week}
        weekTo={weekEnd}
        previousHref={prev ? weekLink(prev) : undefined}
        nextHref={next <= last ? weekLink(next) : undefined}
        days={days.map((d) => ({
          date: d.date,
          times: d.times,
          sessions: d.sessions.map((s) => ({
            value: `${s.sessionId} ${s.slotToken}`,
            startTime: s.startTime,
            staffName: s.staffName,
            remainingSeats: s.remainingSeats,
          })),
        }))}
        holdAction={bookPath(salonSlug, locationSlug, '/hold')}
        // A nonce per rendering: a double click on one time answers one hold (use-cases/guest/hold.ts).
        hidden={{ service: service.id, staff: staffKey ?? '', more: moreKey ?? '', week, lang, n: randomBytes(16).toString('base64url') }}
        gone={field(request.query, 'gone') === '1'}
        changeStaffHref={group ? undefined : link(base, { service: service.id, more: moreKey, lang: langParam })}
        changeServiceHref={link(base, { lang: langParam })}
        visit={
          isVisit
            ? {
                parts: visit.map((s, i) => ({
                  name: s.name,
                  meta: `${t.minutes(s.durationMinutes)} · ${priceText(t, lang, s)}`,
                  removeHref: without(i),
                })),
                total: `${t.minutes(visitMinutes(visit))} · ${priceText(t, lang, visitPrice(visit))}`,
              }
            : undefined
        }
        addServiceHref={addableServices(visit, services).length > 0 ? stepLink({ add: '1', week }) : undefined}
        waitlist={
          // The waitlist keeps one service's times: a visit's guest is not offered it.
          page.settings.waitlist.enabled && !group && !isVisit
            ? {
                href: link(`${base}/waitlist`, { service: service.id, staff: staffKey, week, lang: langParam }),
                words: waitlistMessages(lang),
              }
            : undefined
        }
      />,
    );
  });

  app.get('/book/:salonSlug/:locationSlug/details', { config: GUEST, schema: { hide: true } }, async (request, reply) => {
    const { salonSlug, locationSlug } = request.params as { salonSlug: string; locationSlug: string };
    const { page, location } = await locationOf(app, salonSlug, locationSlug);
    const lang = langOf(request);
    const token = field(request.query, 'c');
    const choice = readChoice(app.ctx.serverSecret, token);
    const services = await pageServices(app.ctx.db, page, location);
    const visit = choice ? choiceServiceIds(choice).map((id) => services.find((s) => s.id === id)) : [];
    const service = visit[0];
    const base = bookPath(salonSlug, locationSlug);
    if (!choice || !token || !service || visit.some((s) => s === undefined)) return seeOther(reply, framingOf(page), link(base, { lang }));
    const formToken = signFormToken(app.ctx.serverSecret, formKeyOf(choice), token);
    return renderDetails(app, reply, {
      page,
      location,
      service,
      visit: visit as ServiceRecord[],
      choice,
      choiceToken: token,
      formToken,
      lang,
      values: emptyDetails(),
      errors: {},
    });
  });
}

function serviceChoice(s: ServiceRecord, href: string) {
  return {
    name: s.name,
    description: s.description,
    durationMinutes: s.durationMinutes,
    priceType: s.priceType,
    priceMinor: s.priceMinor,
    currency: s.currency,
    href,
  };
}

import './calendar.css';
import { useEffect, useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { Field } from '../../components/Field.tsx';
import { LocationSwitcher } from '../../components/LocationSwitcher.tsx';
import { useT } from '../../lib/i18n/index.ts';
import { longDay } from '../../lib/format.ts';
import { addDays, isDate, todayIn, zonedDay } from '../../lib/time.ts';
import { DayView } from './DayView.tsx';
import { MoveDialog } from './MoveDialog.tsx';
import { type BookingPreset, NewBooking } from './NewBooking.tsx';
import { WhyNotFree } from './WhyNotFree.tsx';
import { useLocations, useServices, useStaff } from '../catalogue/queries.ts';
import type { BusinessBooking } from '../../lib/api.ts';
import { type MoveTo, useAgenda, useAgendaDays } from './queries.ts';
import { WeekView } from './WeekView.tsx';
import { weekDates } from './week.ts';

/**
 * The calendar: one location's day, or one staff member's week (`view=week&staff=`). The location,
 * the date and the view live in the URL (`?location=&date=`), so a day can be bookmarked, shared
 * and reloaded; the date is the location's local date and "Today" is today where the location is.
 */
export function CalendarPage() {
  const c = useT().calendar;
  const { slug = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const locations = useLocations(slug);

  const all = locations.data ?? [];
  const wanted = params.get('location');
  const location = all.find((l) => l.slug === wanted) ?? all.find((l) => l.bookingEnabled) ?? all[0];
  const timeZone = location?.timezone;
  const dateParam = params.get('date');
  const date = timeZone ? (isDate(dateParam) ? dateParam : todayIn(timeZone)) : undefined;

  const week = params.get('view') === 'week';
  const agenda = useAgenda(slug, location?.slug, date);
  const services = useServices(slug, location?.slug);
  const staffList = (useStaff(slug, location?.slug).data ?? []).filter((s) => s.active);
  const weekStaff = staffList.find((s) => s.id === params.get('staff')) ?? staffList[0];
  const dates = date ? weekDates(date) : [];
  const weekAgendas = useAgendaDays(slug, week ? location?.slug : undefined, week ? dates : []);

  const [newBooking, setNewBooking] = useState<{ preset: BookingPreset | undefined } | null>(null);
  const [whyNotFree, setWhyNotFree] = useState<{ preset: Parameters<typeof WhyNotFree>[0]['preset'] } | null>(null);
  const [move, setMove] = useState<{ booking: BusinessBooking; to: MoveTo } | null>(null);
  // The booking just made: the view scrolls to it once it is drawn.
  const [scrollTo, setScrollTo] = useState<string | undefined>();
  useEffect(() => {
    if (!scrollTo) return;
    const block = document.querySelector(`[data-booking-id="${scrollTo}"]`);
    if (!block) return;
    block.scrollIntoView({ block: 'center', inline: 'nearest' });
    setScrollTo(undefined);
  });

  useEffect(() => {
    document.title = c.docTitle(date ?? '');
  }, [date, c]);

  const go = (next: { location?: string; date?: string; view?: 'day' | 'week'; staff?: string }) => {
    const p = new URLSearchParams(params);
    if (next.location !== undefined) p.set('location', next.location);
    if (next.date !== undefined) p.set('date', next.date);
    if (next.view === 'week') p.set('view', 'week');
    if (next.view === 'day') p.delete('view');
    if (next.staff !== undefined) p.set('staff', next.staff);
    setParams(p);
  };

  if (locations.isPending) return <p className="loading">{c.loadingLocations}</p>;
  if (locations.isError) return <p role="alert">{locations.error.message}</p>;
  if (!location || !timeZone || !date) {
    return (
      <section className="page">
        <h1>{c.title}</h1>
        <p>{c.noLocation}</p>
      </section>
    );
  }

  const day = zonedDay(date, timeZone);
  const today = todayIn(timeZone);
  const durations = new Map((services.data ?? []).map((s) => [s.id, s.durationMinutes]));

  return (
    <section className="page calendar" aria-labelledby="page-title">
      <div className="calendar-bar">
        <h1 id="page-title">{c.title}</h1>
        <LocationSwitcher all={all} value={location.slug} onChange={(l) => go({ location: l })} />
        <NewBooking
          slug={slug}
          locationSlug={location.slug}
          timeZone={timeZone}
          date={date}
          slotIntervalMinutes={location.slotIntervalMinutes}
          open={newBooking !== null}
          preset={newBooking?.preset}
          onOpen={() => setNewBooking({ preset: undefined })}
          onClose={() => setNewBooking(null)}
          onCreated={(b) => {
            setScrollTo(b.bookingId);
            const on = b.confirmedSlot?.date;
            // the week shows the booking's staff member, the day the booking's date
            if (week) go({ ...(on && !dates.includes(on) ? { date: on } : {}), ...(b.staffId ? { staff: b.staffId } : {}) });
            else if (on && on !== date) go({ date: on });
          }}
          onWhyNotFree={(at) => {
            setNewBooking(null);
            setWhyNotFree({ preset: at });
          }}
        />
        <WhyNotFree
          slug={slug}
          locationSlug={location.slug}
          date={date}
          slotIntervalMinutes={location.slotIntervalMinutes}
          preset={whyNotFree?.preset}
          open={whyNotFree !== null}
          onOpen={() => setWhyNotFree({ preset: undefined })}
          onClose={() => setWhyNotFree(null)}
        />
        <fieldset className="view-switch">
          <legend className="sr-only">{c.view}</legend>
          <button type="button" aria-pressed={!week} onClick={() => go({ view: 'day' })}>
            {c.day}
          </button>
          <button type="button" aria-pressed={week} onClick={() => go({ view: 'week' })}>
            {c.week}
          </button>
        </fieldset>
        <div className="day-nav">
          {week ? (
            <button type="button" onClick={() => go({ date: addDays(date, -7) })}>
              {c.previousWeek}
            </button>
          ) : (
            <button type="button" onClick={() => go({ date: addDays(date, -1) })}>
              {c.previousDay}
            </button>
          )}
          <button type="button" onClick={() => go({ date: today })} aria-pressed={date === today}>
            {c.today}
          </button>
          {week ? (
            <button type="button" onClick={() => go({ date: addDays(date, 7) })}>
              {c.nextWeek}
            </button>
          ) : (
            <button type="button" onClick={() => go({ date: addDays(date, 1) })}>
              {c.nextDay}
            </button>
          )}
          <Field label={c.date} layout="inline">
            <input type="date" value={date} required onChange={(e) => isDate(e.target.value) && go({ date: e.target.value })} />
          </Field>
        </div>
      </div>
      {week && (
        <Field label={c.staffMember} layout="inline">
          <select value={weekStaff?.id ?? ''} onChange={(e) => go({ staff: e.target.value })}>
            {staffList.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </Field>
      )}
      <h2 className="day-title" aria-live="polite">
        {week ? c.weekOf(weekStaff?.name ?? '', longDay(dates[0]!), longDay(dates[6]!)) : longDay(date)}{' '}
        <span className="zone">
          {location.name} · {timeZone}
        </span>
        {day.lengthMinutes !== 1440 && <span className="dst">{c.dstHours(day.lengthMinutes / 60)}</span>}
      </h2>
      <MoveDialog slug={slug} move={move} onClose={() => setMove(null)} />
      {week ? (
        weekStaff ? (
          <WeekView
            dates={dates}
            agendas={weekAgendas.map((q) => q.data)}
            timeZone={timeZone}
            staffId={weekStaff.id}
            staffName={weekStaff.name}
            durations={durations}
            busy={weekAgendas.some((q) => q.isFetching && !q.data)}
            today={today}
            onPick={(at) => setNewBooking({ preset: { staffId: weekStaff.id, ...at } })}
            onMove={(booking, to) => setMove({ booking, to })}
          />
        ) : (
          <p>{c.noStaff}</p>
        )
      ) : agenda.isError ? (
        <p role="alert">{agenda.error.message}</p>
      ) : agenda.data ? (
        // While the next day loads the previous one stays drawn, marked busy.
        <DayView
          agenda={agenda.data}
          day={zonedDay(agenda.data.date, agenda.data.location.timezone)}
          durations={durations}
          busy={agenda.isPlaceholderData}
          nowMs={agenda.data.date === today ? Date.now() : undefined}
          onMove={(booking, to) => setMove({ booking, to })}
        />
      ) : (
        <p className="loading">{c.loadingDay}</p>
      )}
    </section>
  );
}

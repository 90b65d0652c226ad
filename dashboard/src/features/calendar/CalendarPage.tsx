import { useEffect } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { Field } from '../../components/Field.tsx';
import { LocationSwitcher } from '../../components/LocationSwitcher.tsx';
import { addDays, isDate, todayIn, zonedDay } from '../../lib/time.ts';
import { DayView } from './DayView.tsx';
import { NewBooking } from './NewBooking.tsx';
import { WhyNotFree } from './WhyNotFree.tsx';
import { useLocations, useServices } from '../catalogue/queries.ts';
import { useAgenda } from './queries.ts';

/**
 * The calendar: one location's day. The location and the date live in the URL
 * (`?location=&date=`), so a day can be bookmarked, shared and reloaded; the date is the location's
 * local date and "Today" is today where the location is.
 */
export function CalendarPage() {
  const { slug = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const locations = useLocations(slug);

  const all = locations.data ?? [];
  const wanted = params.get('location');
  const location = all.find((l) => l.slug === wanted) ?? all.find((l) => l.bookingEnabled) ?? all[0];
  const timeZone = location?.timezone;
  const dateParam = params.get('date');
  const date = timeZone ? (isDate(dateParam) ? dateParam : todayIn(timeZone)) : undefined;

  const agenda = useAgenda(slug, location?.slug, date);
  const services = useServices(slug, location?.slug);

  useEffect(() => {
    document.title = `Calendar${date ? ` ${date}` : ''} · Bookings dashboard`;
  }, [date]);

  const go = (next: { location?: string; date?: string }) => {
    const p = new URLSearchParams(params);
    if (next.location !== undefined) p.set('location', next.location);
    if (next.date !== undefined) p.set('date', next.date);
    setParams(p);
  };

  if (locations.isPending) return <p className="loading">Loading locations…</p>;
  if (locations.isError) return <p role="alert">{locations.error.message}</p>;
  if (!location || !timeZone || !date) {
    return (
      <section className="page">
        <h1>Calendar</h1>
        <p>This business has no location yet.</p>
      </section>
    );
  }

  const day = zonedDay(date, timeZone);
  const today = todayIn(timeZone);
  const durations = new Map((services.data ?? []).map((s) => [s.id, s.durationMinutes]));

  return (
    <section className="page calendar" aria-labelledby="page-title">
      <div className="calendar-bar">
        <h1 id="page-title">Calendar</h1>
        <LocationSwitcher all={all} value={location.slug} onChange={(l) => go({ location: l })} />
        <NewBooking
          slug={slug}
          locationSlug={location.slug}
          date={date}
          onCreated={(b) => b.confirmedSlot && b.confirmedSlot.date !== date && go({ date: b.confirmedSlot.date })}
        />
        <WhyNotFree slug={slug} locationSlug={location.slug} date={date} slotIntervalMinutes={location.slotIntervalMinutes} />
        <div className="day-nav">
          <button type="button" onClick={() => go({ date: addDays(date, -1) })}>
            Previous day
          </button>
          <button type="button" onClick={() => go({ date: today })} aria-pressed={date === today}>
            Today
          </button>
          <button type="button" onClick={() => go({ date: addDays(date, 1) })}>
            Next day
          </button>
          <Field label="Date" layout="inline">
            <input type="date" value={date} required onChange={(e) => isDate(e.target.value) && go({ date: e.target.value })} />
          </Field>
        </div>
      </div>
      <h2 className="day-title" aria-live="polite">
        {day.title()}{' '}
        <span className="zone">
          {location.name} · {timeZone}
        </span>
        {day.lengthMinutes !== 1440 && <span className="dst"> · this day has {day.lengthMinutes / 60} hours (clock change)</span>}
      </h2>
      {agenda.isError && <p role="alert">{agenda.error.message}</p>}
      {agenda.data ? (
        // While the next day loads the previous one stays drawn, marked busy.
        <DayView
          agenda={agenda.data}
          day={zonedDay(agenda.data.date, agenda.data.location.timezone)}
          durations={durations}
          busy={agenda.isPlaceholderData}
          nowMs={agenda.data.date === today ? Date.now() : undefined}
        />
      ) : (
        !agenda.isError && <p className="loading">Loading the day…</p>
      )}
    </section>
  );
}

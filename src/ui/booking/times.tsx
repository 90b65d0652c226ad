import { formatDate } from '../format.ts';
import type { Lang, Messages } from '../i18n/index.ts';
import { Notice } from './layout.tsx';
import { type VisitPartView, VisitSummary } from './visit.tsx';

export interface TimeDay {
  date: string;
  times: string[];
  sessions: Array<{ value: string; startTime: string; staffName: string; remainingSeats: number }>;
}

export interface TimesProps {
  t: Messages;
  lang: Lang;
  serviceName: string;
  /** the staff member asked for, or `Any staff` */
  staffLabel: string;
  group: boolean;
  timeZone: string;
  weekFrom: string;
  weekTo: string;
  previousHref?: string | undefined;
  nextHref?: string | undefined;
  days: TimeDay[];
  /** where the chosen time is posted (it is held there) */
  holdAction: string;
  /** the hidden fields every time's form carries */
  hidden: Record<string, string>;
  /** the guest came back because the time they chose was gone */
  gone: boolean;
  changeStaffHref?: string | undefined;
  changeServiceHref?: string | undefined;
  /** the manage page's reschedule: whose times are shown, and the way back to the booking */
  staffSwitch?: Array<{ label: string; href: string; current: boolean }> | undefined;
  backLink?: { href: string; text: string } | undefined;
  /** a visit's services (two or more), with its total */
  visit?: { parts: VisitPartView[]; total: string } | undefined;
  /** `Add another service`, while the visit has room for one */
  addServiceHref?: string | undefined;
  /** the waitlist's join form, when the business keeps one (guest-side.md "Waitlist") */
  waitlist?: { href: string; words: { join: string; noSuitableTime: string; noTimeJoinHint: string } } | undefined;
}

/**
 * Step 3: a week of free starts. Each start is a button named exactly `HH:MM` that posts the time
 * to be held (a hold is a write, so never a plain link); a day without one says so.
 */
export function TimesStep(p: TimesProps) {
  const { t, lang } = p;
  const empty = p.days.every((d) => d.times.length === 0 && d.sessions.length === 0);
  return (
    <>
      <p className="where">
        {p.serviceName}
        {p.group ? null : ` · ${p.staffLabel}`}
      </p>
      <h1>{t.stepTime}</h1>
      {p.gone ? (
        <Notice title={t.timeGone}>
          <p>{t.timeGoneHint}</p>
        </Notice>
      ) : null}
      {p.visit ? <VisitSummary t={t} parts={p.visit.parts} total={p.visit.total} /> : null}
      {p.addServiceHref ? (
        <p className="add-service">
          <a href={p.addServiceHref}>{t.addAnotherService}</a>
        </p>
      ) : null}
      <p className="zone">{t.timeZoneNote(p.timeZone)}</p>
      {p.staffSwitch ? (
        <nav className="staff-switch" aria-label={t.rescheduleWho}>
          <ul className="actions">
            {p.staffSwitch.map((s) => (
              <li key={s.href}>
                <a href={s.href} aria-current={s.current ? 'true' : undefined}>
                  {s.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      <nav className="weeks" aria-label={t.weekOf(formatDate(lang, p.weekFrom, 'short'), formatDate(lang, p.weekTo, 'short'))}>
        <p className="week-range">{t.weekOf(formatDate(lang, p.weekFrom, 'short'), formatDate(lang, p.weekTo, 'short'))}</p>
        <ul>
          {p.previousHref ? (
            <li>
              <a href={p.previousHref}>{t.previousWeek}</a>
            </li>
          ) : null}
          {p.nextHref ? (
            <li>
              <a href={p.nextHref}>{t.nextWeek}</a>
            </li>
          ) : null}
        </ul>
      </nav>
      {empty ? <p className="empty-week">{t.noTimesThisWeek}</p> : null}
      {empty && p.waitlist ? (
        <p className="waitlist">
          {p.waitlist.words.noTimeJoinHint}{' '}
          <a className="button" href={p.waitlist.href}>
            {p.waitlist.words.join}
          </a>
        </p>
      ) : null}
      {p.days.map((d) => (
        <section className="day" key={d.date} aria-labelledby={`d-${d.date}`}>
          <h2 id={`d-${d.date}`}>{formatDate(lang, d.date)}</h2>
          {d.times.length === 0 && d.sessions.length === 0 ? (
            <p className="no-times">{t.noTimesThisDay}</p>
          ) : (
            <form method="post" action={p.holdAction}>
              {Object.entries(p.hidden).map(([name, value]) => (
                <input key={name} type="hidden" name={name} value={value} />
              ))}
              <input type="hidden" name="date" value={d.date} />
              {p.group ? (
                <ul className="sessions">
                  {d.sessions.map((s, i) => (
                    <li key={s.value}>
                      <button type="submit" name="session" value={s.value} aria-describedby={`s-${d.date}-${i}`}>
                        {s.startTime}
                      </button>{' '}
                      <span id={`s-${d.date}-${i}`}>
                        {s.staffName ? `${t.sessionWith(s.staffName)} · ` : ''}
                        {t.seatsLeft(s.remainingSeats)}
                      </span>
                    </li>
                  ))}
                </ul>
              ) : (
                // Plain buttons, no list: a 5-minute grid gives a day 100 of them, and a week must
                // stay under 60 KB.
                <div className="times">
                  {d.times.map((time) => (
                    <button key={time} type="submit" name="time" value={time}>
                      {time}
                    </button>
                  ))}
                </div>
              )}
            </form>
          )}
        </section>
      ))}
      {!empty && p.waitlist ? (
        <p className="waitlist">
          {p.waitlist.words.noSuitableTime} <a href={p.waitlist.href}>{p.waitlist.words.join}</a>
        </p>
      ) : null}
      <p className="back">
        {p.changeStaffHref ? (
          <>
            <a href={p.changeStaffHref}>{t.changeStaff}</a>
            {' · '}
          </>
        ) : null}
        {p.changeServiceHref ? <a href={p.changeServiceHref}>{t.changeService}</a> : null}
        {p.backLink ? <a href={p.backLink.href}>{p.backLink.text}</a> : null}
      </p>
    </>
  );
}

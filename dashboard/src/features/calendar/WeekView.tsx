import { type HTMLAttributes, useEffect, useId, useRef } from 'react';
import { Link } from 'react-router';
import type { Agenda, AgendaStaff, BusinessBooking } from '../../lib/api.ts';
import { shortDay } from '../../lib/format.ts';
import { useT } from '../../lib/i18n/index.ts';
import { STATUS_NAMES } from '../../lib/status.ts';
import { clockChangeAt, type ZonedDay, wallDay } from '../../lib/time.ts';
import { type Block, ColumnBackdrop, nestInProcessing, place, SCALE } from './DayView.tsx';
import type { MoveTo } from './queries.ts';
import { dropColumn, useBlockMove } from './useBlockMove.ts';
import { MOVE_STEP_MINUTES } from './week.ts';

interface Props {
  /** Monday to Sunday, location-local */
  dates: readonly string[];
  /** each date's agenda, undefined while it loads */
  agendas: ReadonlyArray<Agenda | undefined>;
  timeZone: string;
  staffId: string;
  staffName: string;
  durations: Map<string, number>;
  busy: boolean;
  today: string;
  /** an empty time chosen: New booking there */
  onPick: (at: { date: string; time: string }) => void;
  /** a booking dropped (or moved by keyboard): ask before moving it */
  onMove: (booking: BusinessBooking, to: MoveTo) => void;
}

/** A day's heading in the member's language (lib/format.ts). */
export const dayLabel = shortDay;

/**
 * One staff member's week, Monday to Sunday, one column per day. An empty time opens New booking
 * there; a confirmed booking can be dragged (pointer events, so mouse, pen and touch alike) or
 * moved with the arrow keys, and either way the move is asked about before it is made.
 */
export function WeekView(props: Props) {
  const { dates, agendas, timeZone, staffId, staffName, durations, busy, today, onPick, onMove } = props;
  const days = dates.map((d) => wallDay(d, timeZone));
  const changes = dates.map((d) => clockChangeAt(d, timeZone));
  const c = useT().calendar;
  const height = Math.max(...days.map((d) => d.lengthMinutes)) * SCALE;
  const scroller = useRef<HTMLElement>(null);
  const hintId = useId();
  const columns = days.map((day) => ({ day, staffId }));
  const { target, handlers } = useBlockMove(columns, SCALE, onMove);

  const staffOf = (i: number): AgendaStaff | undefined => agendas[i]?.staff.find((s) => s.id === staffId);
  const firstOpen = Math.min(8 * 60, ...days.flatMap((day, i) => (staffOf(i)?.workingHours ?? []).map((w) => day.minuteOf(w.start))));
  useEffect(() => {
    if (scroller.current) scroller.current.scrollTop = Math.max(0, firstOpen - 30) * SCALE;
  }, [firstOpen]);

  const targetDay = target ? days[target.column] : undefined;
  const targetWords = target && targetDay ? `${dayLabel(targetDay.date)} ${targetDay.timeAt(target.minute)}` : '';

  return (
    <>
      <p className="hint" id={hintId}>
        {c.weekHint}
      </p>
      <p className="sr-only" aria-live="polite">
        {target ? c.moveTo(targetWords) : ''}
      </p>
      <section
        className="day-scroll"
        ref={scroller}
        aria-busy={busy}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
        tabIndex={0}
        aria-label={c.weekView(staffName, dates[0] ?? '')}
      >
        <table className="day-grid week-grid">
          <caption className="sr-only">
            Bookings of {staffName} from {dates[0]} to {dates[dates.length - 1]} by day ({timeZone})
          </caption>
          <thead>
            <tr>
              <th scope="col" className="gutter">
                <span className="sr-only">{c.time}</span>
              </th>
              {dates.map((date, i) => {
                const staff = staffOf(i);
                return (
                  <th key={date} scope="col" aria-current={date === today ? 'date' : undefined}>
                    {dayLabel(date)}
                    {staff && staff.workingHours.length === 0 && <span className="week-closed">{c.closed}</span>}
                    {changes[i] && <span className="week-closed">{c.clockChange(changes[i])}</span>}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            <tr>
              <td className="gutter">
                <div className="hours" style={{ height }}>
                  {days[0]?.hours.map((h) => (
                    <span key={h.minute} className="hour-label" style={{ top: h.minute * SCALE }}>
                      {h.label}
                    </span>
                  ))}
                </div>
              </td>
              {days.map((day, i) => {
                const staff = staffOf(i);
                const nowMinute = day.date === today ? day.minuteOfInstant(Date.now()) : undefined;
                return (
                  <td key={day.date}>
                    {/* biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard books through `New booking`, which proposes the next free time */}
                    {/* biome-ignore lint/a11y/noStaticElementInteractions: an empty time is chosen by pointer; see the line above */}
                    <div
                      className="column week-column"
                      {...dropColumn(i, { day, staffId })}
                      style={{ height }}
                      onClick={(e) => {
                        if ((e.target as HTMLElement).closest('.booking')) return;
                        const minute =
                          Math.floor((e.clientY - e.currentTarget.getBoundingClientRect().top) / SCALE / MOVE_STEP_MINUTES) *
                          MOVE_STEP_MINUTES;
                        onPick({ date: day.date, time: day.timeAt(Math.min(minute, day.lengthMinutes - MOVE_STEP_MINUTES)) });
                      }}
                    >
                      {staff && (
                        <DayColumn
                          staff={staff}
                          day={day}
                          durations={durations}
                          nowMinute={nowMinute}
                          hintId={hintId}
                          handlers={(b) => handlers(b, i)}
                          moving={target?.booking.bookingId}
                        />
                      )}
                      {target && target.column === i && (
                        <div
                          className="move-ghost"
                          style={{ top: target.minute * SCALE, height: target.length * SCALE }}
                          aria-hidden="true"
                        >
                          {day.timeAt(target.minute)}
                        </div>
                      )}
                    </div>
                  </td>
                );
              })}
            </tr>
          </tbody>
        </table>
      </section>
    </>
  );
}

function DayColumn(props: {
  staff: AgendaStaff;
  day: ZonedDay;
  durations: Map<string, number>;
  nowMinute: number | undefined;
  hintId: string;
  handlers: (b: Block) => HTMLAttributes<HTMLAnchorElement>;
  moving: string | undefined;
}) {
  const { staff, day, durations, nowMinute, hintId, handlers, moving } = props;
  const blocks = nestInProcessing(staff.bookings.map((b) => place(b, day, durations)).filter((b): b is Block => b !== undefined));
  return (
    <>
      <ColumnBackdrop staff={staff} day={day} nowMinute={nowMinute} />
      {blocks.map((block) => {
        const { booking: b, top, height: h, start, end, nested } = block;
        const status = STATUS_NAMES[b.status];
        const time = end ? `${start}–${end}` : start;
        // Reschedule is for confirmed bookings only: the others are links, not draggable
        const movable = b.status === 'confirmed';
        return (
          <Link
            key={b.bookingId}
            to={`../bookings/${b.bookingId}`}
            relative="path"
            data-booking-id={b.bookingId}
            className={`booking status-${b.status}${nested ? ' nested' : ''}${movable ? ' movable' : ''}${moving === b.bookingId ? ' moving' : ''}`}
            style={{ top: top * SCALE, height: h * SCALE }}
            aria-label={`${dayLabel(day.date)} ${time} ${b.guest.name}, ${b.serviceName}, ${status}`}
            aria-describedby={movable ? hintId : undefined}
            {...(movable ? handlers(block) : {})}
          >
            <span className="booking-time">{time}</span> <strong className="booking-guest">{b.guest.name}</strong>{' '}
            <span className="booking-service">{b.serviceName}</span> <span className="booking-status">{status}</span>
          </Link>
        );
      })}
    </>
  );
}

import { type HTMLAttributes, type KeyboardEvent, type MouseEvent, type PointerEvent, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Temporal } from 'temporal-polyfill';
import type { Agenda, AgendaStaff, BusinessBooking } from '../../lib/api.ts';
import { STATUS_NAMES } from '../../lib/status.ts';
import { MINUTE_MS, type ZonedDay, zonedDay } from '../../lib/time.ts';
import { type Block, nestInProcessing, place, SCALE } from './DayView.tsx';
import type { MoveTo } from './queries.ts';
import { MOVE_STEP_MINUTES } from './week.ts';

/** A press that travels less than this is a click (open the booking), not a drag. */
const DRAG_THRESHOLD_PX = 5;

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

/** Where a booking would go: a column (date) and the minute of that day, from its start. */
interface Target {
  booking: BusinessBooking;
  date: string;
  minute: number;
  length: number;
}

/** The location-local wall-clock time `minute` minutes after the day's start (DST-safe). */
function localTime(day: ZonedDay, minute: number): string {
  return Temporal.Instant.fromEpochMilliseconds(day.startMs + minute * MINUTE_MS)
    .toZonedDateTimeISO(day.timeZone)
    .toPlainTime()
    .toString({ smallestUnit: 'minute' });
}

function snap(minute: number): number {
  return Math.round(minute / MOVE_STEP_MINUTES) * MOVE_STEP_MINUTES;
}

export function dayLabel(date: string): string {
  return Temporal.PlainDate.from(date).toLocaleString('en-GB', { weekday: 'short', day: 'numeric', month: 'short' });
}

/**
 * One staff member's week, Monday to Sunday, one column per day. An empty time opens New booking
 * there; a confirmed booking can be dragged (pointer events, so mouse, pen and touch alike) or
 * moved with the arrow keys, and either way the move is asked about before it is made.
 */
export function WeekView(props: Props) {
  const { dates, agendas, timeZone, staffId, staffName, durations, busy, today, onPick, onMove } = props;
  const days = dates.map((d) => zonedDay(d, timeZone));
  const height = Math.max(...days.map((d) => d.lengthMinutes)) * SCALE;
  const scroller = useRef<HTMLElement>(null);
  const hintId = useId();
  const [target, setTarget] = useState<Target | null>(null);
  const press = useRef<{ x: number; y: number; grab: number; dragging: boolean; block: Block } | null>(null);
  const justDragged = useRef(false);

  const staffOf = (i: number): AgendaStaff | undefined => agendas[i]?.staff.find((s) => s.id === staffId);
  const firstOpen = Math.min(8 * 60, ...days.flatMap((day, i) => (staffOf(i)?.workingHours ?? []).map((w) => day.minuteOf(w.start))));
  useEffect(() => {
    if (scroller.current) scroller.current.scrollTop = Math.max(0, firstOpen - 30) * SCALE;
  }, [firstOpen]);

  const commit = (t: Target) => {
    const day = days[dates.indexOf(t.date)];
    if (day) onMove(t.booking, { date: t.date, startTime: localTime(day, t.minute), staffId });
  };

  /** The column under the pointer and the minute the block's top would be at, snapped. */
  const targetAt = (clientX: number, clientY: number, grab: number, block: Block): Target | null => {
    const column = document
      .elementsFromPoint(clientX, clientY)
      .find((el): el is HTMLElement => el instanceof HTMLElement && el.dataset.dropDate !== undefined);
    const date = column?.dataset.dropDate;
    const day = date ? days[dates.indexOf(date)] : undefined;
    if (!column || !date || !day) return null;
    const top = (clientY - grab - column.getBoundingClientRect().top) / SCALE;
    const minute = Math.max(0, Math.min(day.lengthMinutes - block.height, snap(top)));
    return { booking: block.booking, date, minute, length: block.height };
  };

  const blockHandlers = (block: Block, date: string): HTMLAttributes<HTMLAnchorElement> => ({
    onPointerDown: (e: PointerEvent<HTMLAnchorElement>) => {
      if (e.button !== 0) return;
      justDragged.current = false;
      press.current = { x: e.clientX, y: e.clientY, grab: e.clientY - e.currentTarget.getBoundingClientRect().top, dragging: false, block };
    },
    onPointerMove: (e: PointerEvent<HTMLAnchorElement>) => {
      const p = press.current;
      if (!p) return;
      if (!p.dragging) {
        if (Math.hypot(e.clientX - p.x, e.clientY - p.y) < DRAG_THRESHOLD_PX) return;
        p.dragging = true;
        e.currentTarget.setPointerCapture(e.pointerId);
      }
      const t = targetAt(e.clientX, e.clientY, p.grab, block);
      if (t) setTarget(t);
    },
    onPointerUp: (e: PointerEvent<HTMLAnchorElement>) => {
      const p = press.current;
      press.current = null;
      if (!p?.dragging) return;
      justDragged.current = true;
      const t = targetAt(e.clientX, e.clientY, p.grab, block);
      setTarget(null);
      if (t && (t.date !== date || t.minute !== block.top)) commit(t);
    },
    // a link's own drag (the browser's, of its address) would cancel the pointer's
    draggable: false,
    onPointerCancel: () => {
      press.current = null;
      setTarget(null);
    },
    onClick: (e: MouseEvent<HTMLAnchorElement>) => {
      // the click that ends a drag is not a visit to the booking
      if (justDragged.current) e.preventDefault();
      justDragged.current = false;
    },
    onKeyDown: (e: KeyboardEvent<HTMLAnchorElement>) => {
      const current = target?.booking.bookingId === block.booking.bookingId ? target : null;
      const at = current ?? { booking: block.booking, date, minute: block.top, length: block.height };
      const i = dates.indexOf(at.date);
      const day = days[i];
      if (!day) return;
      let next: Target | null = null;
      if (e.key === 'ArrowUp') next = { ...at, minute: Math.max(0, at.minute - MOVE_STEP_MINUTES) };
      else if (e.key === 'ArrowDown') next = { ...at, minute: Math.min(day.lengthMinutes - at.length, at.minute + MOVE_STEP_MINUTES) };
      else if (e.key === 'ArrowLeft' && i > 0) next = { ...at, date: dates[i - 1]! };
      else if (e.key === 'ArrowRight' && i < dates.length - 1) next = { ...at, date: dates[i + 1]! };
      else if (e.key === 'Enter' && current) {
        // Enter on a moved booking asks to move it instead of opening it
        e.preventDefault();
        setTarget(null);
        commit(current);
        return;
      } else if (e.key === 'Escape' && current) {
        e.preventDefault();
        setTarget(null);
        return;
      } else return;
      e.preventDefault();
      setTarget(next);
    },
    onBlur: () => setTarget((t) => (t?.booking.bookingId === block.booking.bookingId && press.current === null ? null : t)),
  });

  const targetDay = target ? days[dates.indexOf(target.date)] : undefined;
  const targetWords = target && targetDay ? `${dayLabel(target.date)} ${localTime(targetDay, target.minute)}` : '';

  return (
    <>
      <p className="hint" id={hintId}>
        Choose an empty time to book it. Drag a booking to move it, or focus it, move it with the arrow keys and press Enter.
      </p>
      <p className="sr-only" aria-live="polite">
        {target ? `Move to ${targetWords}; Enter to confirm, Escape to cancel.` : ''}
      </p>
      <section
        className="day-scroll"
        ref={scroller}
        aria-busy={busy}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
        tabIndex={0}
        aria-label={`Week view of ${staffName} from ${dates[0]}`}
      >
        <table className="day-grid week-grid">
          <caption className="sr-only">
            Bookings of {staffName} from {dates[0]} to {dates[dates.length - 1]} by day ({timeZone})
          </caption>
          <thead>
            <tr>
              <th scope="col" className="gutter">
                <span className="sr-only">Time</span>
              </th>
              {dates.map((date, i) => {
                const staff = staffOf(i);
                return (
                  <th key={date} scope="col" aria-current={date === today ? 'date' : undefined}>
                    {dayLabel(date)}
                    {staff && staff.workingHours.length === 0 && <span className="week-closed"> Closed</span>}
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
                const nowMinute = day.date === today ? Math.round((Date.now() - day.startMs) / MINUTE_MS) : undefined;
                return (
                  <td key={day.date}>
                    {/* biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard books through `New booking`, which proposes the next free time */}
                    {/* biome-ignore lint/a11y/noStaticElementInteractions: an empty time is chosen by pointer; see the line above */}
                    <div
                      className="column week-column"
                      data-drop-date={day.date}
                      style={{ height }}
                      onClick={(e) => {
                        if ((e.target as HTMLElement).closest('.booking')) return;
                        const minute =
                          Math.floor((e.clientY - e.currentTarget.getBoundingClientRect().top) / SCALE / MOVE_STEP_MINUTES) *
                          MOVE_STEP_MINUTES;
                        onPick({ date: day.date, time: localTime(day, Math.min(minute, day.lengthMinutes - MOVE_STEP_MINUTES)) });
                      }}
                    >
                      {staff && (
                        <DayColumn
                          staff={staff}
                          day={day}
                          durations={durations}
                          nowMinute={nowMinute}
                          hintId={hintId}
                          handlers={(b) => blockHandlers(b, day.date)}
                          moving={target?.booking.bookingId}
                        />
                      )}
                      {target && target.date === day.date && (
                        <div
                          className="move-ghost"
                          style={{ top: target.minute * SCALE, height: target.length * SCALE }}
                          aria-hidden="true"
                        >
                          {localTime(day, target.minute)}
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
      {day.hours.map((h) => (
        <div key={h.minute} className="hour-line" style={{ top: h.minute * SCALE }} aria-hidden="true" />
      ))}
      {staff.workingHours.map((w) => {
        const top = day.minuteOf(w.start);
        return (
          <div
            key={`${w.start}-${w.end}`}
            className="open"
            style={{ top: top * SCALE, height: (day.minuteOf(w.end) - top) * SCALE }}
            aria-hidden="true"
          />
        );
      })}
      {staff.timeOff.map((t) => {
        const top = day.minuteOf(t.from);
        return (
          <div
            key={`${t.from}-${t.to}`}
            className="time-off"
            style={{ top: top * SCALE, height: (day.minuteOf(t.to) - top) * SCALE }}
            aria-hidden="true"
          >
            <span>Time off</span>
          </div>
        );
      })}
      {nowMinute !== undefined && nowMinute >= 0 && nowMinute <= day.lengthMinutes && (
        <div className="now-line" style={{ top: nowMinute * SCALE }} aria-hidden="true" />
      )}
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

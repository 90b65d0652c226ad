import { type HTMLAttributes, useEffect, useId, useRef } from 'react';
import { Link } from 'react-router';
import type { Agenda, AgendaStaff, BusinessBooking } from '../../lib/api.ts';
import { useT } from '../../lib/i18n/index.ts';
import { STATUS_NAMES } from '../../lib/status.ts';
import { addDays, type ZonedDay } from '../../lib/time.ts';
import type { MoveTo } from './queries.ts';
import { dropColumn, type MoveTarget, useBlockMove } from './useBlockMove.ts';

/** Pixels per minute of the day: an hour is 60 px. */
export const SCALE = 1;

export interface Block {
  booking: BusinessBooking;
  top: number;
  height: number;
  start: string;
  end: string | undefined;
  /** processing parts, in minutes of the day: the staff member is free then */
  processing: Array<{ top: number; bottom: number; start: string; end: string }>;
  /** starts inside another booking's processing time: drawn indented on top of it */
  nested: boolean;
}

/** Where a booking sits on the day: its confirmed slot, else the requested or proposed one. */
export function place(b: BusinessBooking, day: ZonedDay, durations: Map<string, number>): Block | undefined {
  const slot =
    b.confirmedSlot ??
    (b.requestedSlot.date && b.requestedSlot.startTime
      ? { date: b.requestedSlot.date, startTime: b.requestedSlot.startTime }
      : undefined) ??
    b.proposedSlot;
  if (!slot) return undefined;
  const top = day.minuteOfLocal(slot.date, slot.startTime);
  const end: string | undefined = 'endTime' in slot ? slot.endTime : undefined;
  let bottom: number;
  if (end !== undefined) {
    // An end before the start is on the next day (a booking across midnight).
    const endDate = end <= slot.startTime ? addDays(slot.date, 1) : slot.date;
    bottom = day.minuteOfLocal(endDate, end);
  } else {
    const minutes = durations.get(b.serviceId);
    bottom = Math.min(day.lengthMinutes, top + (minutes ?? 30));
  }
  const processing = (b.processing ?? []).map((p) => {
    // A processing part after midnight belongs to the next day, like the end.
    const startDate = p.startTime < slot.startTime ? addDays(slot.date, 1) : slot.date;
    const endDate = p.endTime <= slot.startTime ? addDays(slot.date, 1) : slot.date;
    return {
      top: day.minuteOfLocal(startDate, p.startTime),
      bottom: day.minuteOfLocal(endDate, p.endTime),
      start: p.startTime,
      end: p.endTime,
    };
  });
  return { booking: b, top, height: Math.max(bottom - top, 15), start: slot.startTime, end, processing, nested: false };
}

/** Marks the blocks that start inside another block's processing time (the stylist works on them meanwhile). */
export function nestInProcessing(blocks: Block[]): Block[] {
  return blocks.map((b) => ({
    ...b,
    nested: blocks.some((o) => o !== b && o.processing.some((p) => b.top >= p.top && b.top < p.bottom)),
  }));
}

export function DayView(props: {
  agenda: Agenda;
  day: ZonedDay;
  durations: Map<string, number>;
  busy: boolean;
  nowMs: number | undefined;
  /** a booking dropped on another time or staff member (or moved by keyboard): ask before moving it */
  onMove?: (booking: BusinessBooking, to: MoveTo) => void;
}) {
  const { agenda, day, durations, busy, nowMs, onMove } = props;
  const c = useT().calendar;
  const scroller = useRef<HTMLElement>(null);
  const height = day.lengthMinutes * SCALE;
  const columns = agenda.staff.map((s) => ({ day, staffId: s.id }));
  const { target, handlers } = useBlockMove(columns, SCALE, onMove ?? (() => {}));
  const hintId = useId();
  const targetStaff = target ? agenda.staff[target.column] : undefined;

  // Open at the first working hour of the day (or 08:00), not at midnight.
  const firstOpen = Math.min(...agenda.staff.flatMap((s) => s.workingHours.map((w) => day.minuteOf(w.start))), 8 * 60);
  useEffect(() => {
    if (scroller.current) scroller.current.scrollTop = Math.max(0, firstOpen - 30) * SCALE;
  }, [firstOpen]);

  if (agenda.staff.length === 0) return <p>{c.noStaff}</p>;

  const nowMinute = nowMs === undefined ? undefined : day.minuteOfInstant(nowMs);

  return (
    // Focusable so that the keyboard can scroll the day (arrow keys, Page Up/Down).
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
    <section className="day-scroll" ref={scroller} aria-busy={busy} tabIndex={0} aria-label={c.dayView(day.date)}>
      <p className="sr-only" id={hintId}>
        {c.dayHint}
      </p>
      <p className="sr-only" aria-live="polite">
        {target && targetStaff ? c.moveTo(`${targetStaff.name} ${day.timeAt(target.minute)}`) : ''}
      </p>
      <table className="day-grid">
        <caption className="sr-only">{c.dayCaption(day.date, day.timeZone)}</caption>
        <thead>
          <tr>
            <th scope="col" className="gutter">
              <span className="sr-only">{c.time}</span>
            </th>
            {agenda.staff.map((s) => (
              <th key={s.id} scope="col">
                {s.name}
                {s.workingHours.length === 0 && <span className="week-closed">{c.closed}</span>}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          <tr>
            <td className="gutter">
              <div className="hours" style={{ height }}>
                {day.hours.map((h) => (
                  <span key={h.minute} className="hour-label" style={{ top: h.minute * SCALE }}>
                    {h.label}
                  </span>
                ))}
              </div>
            </td>
            {agenda.staff.map((s, i) => (
              <td key={s.id}>
                <StaffColumn
                  staff={s}
                  day={day}
                  durations={durations}
                  height={height}
                  nowMinute={nowMinute}
                  column={i}
                  move={onMove ? { target, handlers, hintId } : undefined}
                />
              </td>
            ))}
          </tr>
        </tbody>
      </table>
    </section>
  );
}

/**
 * What a staff member's column of one day draws behind its bookings, in the day view and in each
 * day of the week view: the hour lines, the working hours open, time off shaded, the now-line.
 */
export function ColumnBackdrop(props: { staff: AgendaStaff; day: ZonedDay; nowMinute?: number | undefined }) {
  const { staff, day, nowMinute } = props;
  const c = useT().calendar;
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
            <span>{c.timeOff}</span>
          </div>
        );
      })}
      {nowMinute !== undefined && nowMinute >= 0 && nowMinute <= day.lengthMinutes && (
        <div className="now-line" style={{ top: nowMinute * SCALE }} aria-hidden="true" />
      )}
    </>
  );
}

function StaffColumn(props: {
  staff: AgendaStaff;
  day: ZonedDay;
  durations: Map<string, number>;
  height: number;
  nowMinute?: number;
  column: number;
  move:
    | { target: MoveTarget | null; handlers: (b: Block, column: number) => HTMLAttributes<HTMLAnchorElement>; hintId: string }
    | undefined;
}) {
  const { staff, day, durations, height, nowMinute, column, move } = props;
  const c = useT().calendar;
  const blocks = nestInProcessing(staff.bookings.map((b) => place(b, day, durations)).filter((b): b is Block => b !== undefined));
  const hoursText =
    staff.workingHours.length === 0 ? c.notWorking : c.works(staff.workingHours.map((w) => `${w.start}–${w.end}`).join(', '));
  return (
    <div className="column" style={{ height }} {...dropColumn(column, { day, staffId: staff.id })}>
      <p className="sr-only">
        {hoursText}
        {staff.timeOff.length > 0 && c.timeOffList(staff.timeOff.map((t) => `${t.from}–${t.to}`).join(', '))}
      </p>
      <ColumnBackdrop staff={staff} day={day} nowMinute={nowMinute} />
      {move?.target && move.target.column === column && (
        <div className="move-ghost" style={{ top: move.target.minute * SCALE, height: move.target.length * SCALE }} aria-hidden="true">
          {day.timeAt(move.target.minute)}
        </div>
      )}
      {blocks.map((block) => {
        const { booking: b, top, height: h, start, end, processing, nested } = block;
        // Reschedule is for confirmed bookings only: the others are links, not draggable
        const movable = move !== undefined && b.status === 'confirmed';
        const moving = move?.target?.booking.bookingId === b.bookingId;
        const status = STATUS_NAMES[b.status];
        const time = end ? `${start}–${end}` : start;
        const processingWords = processing.map((p) => c.processingPart(p.start, p.end)).join('');
        const units = (b.resources ?? []).map((r) => `${r.name} ${r.unit}`).join(', ');
        return (
          <Link
            key={b.bookingId}
            data-booking-id={b.bookingId}
            to={`../bookings/${b.bookingId}`}
            relative="path"
            className={`booking status-${b.status}${nested ? ' nested' : ''}${movable ? ' movable' : ''}${moving ? ' moving' : ''}`}
            style={{ top: top * SCALE, height: h * SCALE }}
            aria-label={`${time} ${b.guest.name}, ${b.serviceName}, ${status}${processingWords}${units ? `, ${units}` : ''}`}
            aria-describedby={movable ? move.hintId : undefined}
            {...(movable ? move.handlers(block, column) : {})}
          >
            {processing.map((p) => (
              <span
                key={p.start}
                className="booking-processing"
                style={{ top: (p.top - top) * SCALE, height: (p.bottom - p.top) * SCALE }}
                aria-hidden="true"
              >
                {c.processing}
              </span>
            ))}
            <span className="booking-time">{time}</span> <strong className="booking-guest">{b.guest.name}</strong>{' '}
            <span className="booking-service">{b.serviceName}</span> <span className="booking-status">{status}</span>
            {units && (
              <>
                {' '}
                <span className="booking-resources">{units}</span>
              </>
            )}
          </Link>
        );
      })}
    </div>
  );
}

import { type HTMLAttributes, type KeyboardEvent, type MouseEvent, type PointerEvent, useRef, useState } from 'react';
import type { BusinessBooking } from '../../lib/api.ts';
import type { ZonedDay } from '../../lib/time.ts';
import type { MoveTo } from './queries.ts';
import { MOVE_STEP_MINUTES } from './week.ts';

/** A press that travels less than this is a click (open the booking), not a drag. */
const DRAG_THRESHOLD_PX = 5;

/** A booking as drawn: its top and height in minutes of its day. */
interface Block {
  booking: BusinessBooking;
  top: number;
  height: number;
}

/** A column a booking can be put in: a day of a staff member (the week's days, or the day's staff). */
export interface DropColumn {
  day: ZonedDay;
  staffId: string;
}

/** Where a booking would go: a column and the minute of that day, from its start. */
export interface MoveTarget {
  booking: BusinessBooking;
  column: number;
  minute: number;
  length: number;
}

function snap(minute: number): number {
  return Math.round(minute / MOVE_STEP_MINUTES) * MOVE_STEP_MINUTES;
}

/** The attribute that marks column `i` as a place to drop a booking on. */
export function dropColumn(i: number, column: DropColumn) {
  return { 'data-drop-column': i, 'data-drop-date': column.day.date, 'data-drop-staff': column.staffId };
}

/**
 * Moving a confirmed booking between the columns of a view, by pointer (mouse, pen and touch alike)
 * or by keyboard (arrow keys, Enter, Escape), its top snapped to 15 minutes. Nothing is moved here:
 * `onMove` asks first.
 */
export function useBlockMove(
  columns: readonly DropColumn[],
  /** pixels per minute of the view */
  scale: number,
  onMove: (booking: BusinessBooking, to: MoveTo) => void,
) {
  const [target, setTarget] = useState<MoveTarget | null>(null);
  const press = useRef<{ x: number; y: number; grab: number; dragging: boolean } | null>(null);
  const justDragged = useRef(false);

  const commit = (t: MoveTarget) => {
    const c = columns[t.column];
    if (c) onMove(t.booking, { date: c.day.date, startTime: c.day.timeAt(t.minute), staffId: c.staffId });
  };

  /** The column under the pointer and the minute the block's top would be at. */
  const targetAt = (clientX: number, clientY: number, grab: number, block: Block): MoveTarget | null => {
    const el = document
      .elementsFromPoint(clientX, clientY)
      .find((e): e is HTMLElement => e instanceof HTMLElement && e.dataset.dropColumn !== undefined);
    const i = Number(el?.dataset.dropColumn);
    const c = columns[i];
    if (!el || !c) return null;
    const top = (clientY - grab - el.getBoundingClientRect().top) / scale;
    const minute = Math.max(0, Math.min(c.day.lengthMinutes - block.height, snap(top)));
    return { booking: block.booking, column: i, minute, length: block.height };
  };

  const handlers = (block: Block, column: number): HTMLAttributes<HTMLAnchorElement> => ({
    // a link's own drag (the browser's, of its address) would cancel the pointer's
    draggable: false,
    onPointerDown: (e: PointerEvent<HTMLAnchorElement>) => {
      if (e.button !== 0) return;
      justDragged.current = false;
      press.current = { x: e.clientX, y: e.clientY, grab: e.clientY - e.currentTarget.getBoundingClientRect().top, dragging: false };
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
      if (t && (t.column !== column || t.minute !== block.top)) commit(t);
    },
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
      const at = current ?? { booking: block.booking, column, minute: block.top, length: block.height };
      const c = columns[at.column];
      if (!c) return;
      let next: MoveTarget | null = null;
      if (e.key === 'ArrowUp') next = { ...at, minute: Math.max(0, at.minute - MOVE_STEP_MINUTES) };
      else if (e.key === 'ArrowDown') next = { ...at, minute: Math.min(c.day.lengthMinutes - at.length, at.minute + MOVE_STEP_MINUTES) };
      else if (e.key === 'ArrowLeft' && at.column > 0) next = { ...at, column: at.column - 1 };
      else if (e.key === 'ArrowRight' && at.column < columns.length - 1) next = { ...at, column: at.column + 1 };
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

  return { target, handlers };
}

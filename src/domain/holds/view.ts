import type { HoldRecord, VisitHold } from './record.ts';

/** `data.hold` of the public API (guest-side.md "Holds"); `status` is added to the spec's fields. */
export function toHoldView(h: HoldRecord) {
  return {
    holdId: h.id,
    expiresAt: h.expiresAt.toISOString(),
    serviceId: h.serviceId,
    staffId: h.staffId,
    slot: { ...h.slot, timezone: h.timezone },
    status: h.status,
  };
}

/** A visit's hold: the first part's view, with the visit's services and each part's staff and times. */
export function toVisitHoldView(v: VisitHold) {
  return {
    ...toHoldView(v.hold),
    serviceIds: v.parts.map((p) => p.serviceId),
    visit: v.parts.map((p) => ({ serviceId: p.serviceId, staffId: p.staffId, startTime: p.slot.startTime, endTime: p.slot.endTime })),
  };
}

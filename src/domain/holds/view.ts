import type { HoldRecord } from './record.ts';

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

/**
 * The mixed workload: many simulated integrators, each a loop with its own key (search → book →
 * sometimes cancel, list, read, read events, catalog and subscription reads, duplicate retries
 * with the same Idempotency-Key), and operator loops deciding requests (accept, decline, propose,
 * accept the proposal, reschedule). Concurrency is bounded by the number of loops.
 *
 * Every 2xx that carries a booking is remembered as the latest acknowledged state of that booking
 * (highest stateVersion wins), which the invariants compare with the database afterwards.
 */
import { randomUUID } from 'node:crypto';
import type { CallResult, SoakClient } from './client.ts';
import type { GuestData } from './guest-data.ts';
import type { Recorder } from './recorder.ts';
import type { Salon, SoakService } from './setup.ts';

export interface Ack {
  bookingId: string;
  salon: Salon;
  service: SoakService;
  status: string;
  stateVersion: number;
  /** what acknowledged it, e.g. `POST /v1/bookings 201` */
  via: string;
}

export interface WorkloadStats {
  created: number;
  replays: number;
  replayMismatches: number;
  payloadMismatchChecks: number;
  cancels: number;
  operatorActions: number;
  /** creates still answered "try again" when the client gave up */
  createsUnanswered: number;
}

const CONSENT = {
  privacyNoticeVersion: 'pn-soak-1',
  termsVersion: 'tos-soak-1',
  locale: 'hu-HU',
  acceptedAt: new Date().toISOString(),
  policyConsentGiven: true,
};

const TZ_DATE = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Budapest', year: 'numeric', month: '2-digit', day: '2-digit' });

/** The Budapest local date `n` days from today. */
function localDate(n: number): string {
  return TZ_DATE.format(new Date(Date.now() + n * 86_400_000));
}

function pick<T>(xs: readonly T[]): T {
  return xs[Math.floor(Math.random() * xs.length)]!;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export class Workload {
  readonly acks = new Map<string, Ack>();
  readonly stats: WorkloadStats = {
    created: 0,
    replays: 0,
    replayMismatches: 0,
    payloadMismatchChecks: 0,
    cancels: 0,
    operatorActions: 0,
    createsUnanswered: 0,
  };
  private guestNo = 0;

  constructor(
    private readonly client: SoakClient,
    private readonly recorder: Recorder,
    private readonly guests: GuestData,
    private readonly salons: Salon[],
    private readonly adminToken: string,
    private readonly deadline: number,
    private readonly thinkMs: number,
  ) {}

  /** Runs every loop until the deadline. */
  async run(): Promise<void> {
    const loops: Promise<void>[] = [];
    for (const salon of this.salons) {
      // each integrator loop spreads its calls over two keys, so the elevated limits leave room to work
      const loopsPerSalon = Math.max(1, Math.floor(salon.ownerKeys.length / 2));
      for (let i = 0; i < loopsPerSalon; i++) {
        loops.push(
          this.integrator(
            salon,
            salon.ownerKeys.filter((_, k) => k % loopsPerSalon === i),
          ),
        );
      }
      loops.push(this.partner(salon));
      loops.push(this.standardReader(salon));
    }
    loops.push(this.operator(), this.operator());
    await Promise.all(loops);
  }

  private live(): boolean {
    return Date.now() < this.deadline;
  }

  private think(): Promise<void> {
    return sleep(Math.random() * this.thinkMs);
  }

  /** Remembers a 2xx booking answer when it is the newest state seen for that booking. */
  private acknowledge(r: CallResult, salon: Salon, service: SoakService, via: string): void {
    const b = r.body?.data?.booking;
    if (r.status >= 300 || !b || typeof b.bookingId !== 'string') return;
    const prev = this.acks.get(b.bookingId);
    if (prev && prev.stateVersion >= b.stateVersion) return;
    this.acks.set(b.bookingId, {
      bookingId: b.bookingId,
      salon,
      service,
      status: b.status,
      stateVersion: b.stateVersion,
      via: `${via} ${r.status}`,
    });
  }

  private async search(salon: Salon, key: string, service: SoakService): Promise<any[]> {
    const from = localDate(1 + Math.floor(Math.random() * 28));
    const r = await this.client.call({
      method: 'POST',
      path: '/v1/availability/search',
      route: 'POST /v1/availability/search',
      token: key,
      body: { salonSlug: salon.slug, locationSlug: salon.locationSlug, serviceId: service.id, dateRange: { from, to: from } },
      retryOnOther: true,
    });
    return r.status === 200 && Array.isArray(r.body?.data?.slots) ? r.body.data.slots : [];
  }

  /** POST /bookings, repeated with the same Idempotency-Key while the answer is "try again". */
  private async create(_salon: Salon, key: string, body: unknown, idemKey: string): Promise<CallResult> {
    let r: CallResult;
    for (let attempt = 0; ; attempt++) {
      r = await this.client.call({
        method: 'POST',
        path: '/v1/bookings',
        route: 'POST /v1/bookings',
        token: key,
        body,
        headers: { 'idempotency-key': idemKey },
        retryOnOther: true,
      });
      const again = r.status === 0 || r.code === 'idempotency.request_in_progress' || r.status === 500;
      if (!again) return r;
      // long enough to outlast the 30 s lease of a key whose request the kill cut off
      if (attempt >= 12 || Date.now() > this.deadline + 40_000) {
        this.stats.createsUnanswered += 1;
        return r;
      }
      await sleep(Math.min(500 + attempt * 700, 5_000));
    }
  }

  private async searchAndBook(salon: Salon, key: string, mine: string[] | undefined): Promise<void> {
    const service = pick(salon.services);
    const slots = await this.search(salon, key, service);
    if (slots.length === 0 || !this.live()) return;
    const slot = pick(slots);
    this.guestNo += 1;
    const body = {
      salonSlug: salon.slug,
      locationSlug: salon.locationSlug,
      serviceId: service.id,
      expectedPricingVersion: service.pricingVersion,
      staffId: slot.staffId,
      slot: { date: slot.date, startTime: slot.startTime },
      guest: this.guests.guest(`Soak Guest ${this.guestNo}`),
      consent: CONSENT,
    };
    const idemKey = randomUUID();
    const r = await this.create(salon, key, body, idemKey);
    if (r.status !== 201) return;
    this.stats.created += 1;
    this.acknowledge(r, salon, service, 'POST /v1/bookings');
    const bookingId: string = r.body.data.booking.bookingId;
    if (mine && Math.random() < 0.35) mine.push(bookingId);

    // A client that lost the answer retries with the same key: it must get the same booking back.
    if (Math.random() < 0.15) {
      const again = await this.create(salon, key, body, idemKey);
      this.stats.replays += 1;
      if (again.status === 201) {
        if (again.body?.data?.booking?.bookingId !== bookingId || again.body?.meta?.idempotent !== true) {
          this.stats.replayMismatches += 1;
          this.recorder.anomaly(
            `replay of ${idemKey} returned ${again.body?.data?.booking?.bookingId} (idempotent=${again.body?.meta?.idempotent}), not ${bookingId}`,
          );
        }
      } else if (again.status !== 0 && again.status !== 429) {
        this.stats.replayMismatches += 1;
        this.recorder.anomaly(`replay of ${idemKey} answered ${again.status} ${again.code}`);
      }
    }
    // The same key with another body is a client bug the service must refuse.
    if (Math.random() < 0.03) {
      const other = await this.client.call({
        method: 'POST',
        path: '/v1/bookings',
        route: 'POST /v1/bookings',
        token: key,
        body: { ...body, note: 'changed my mind' },
        headers: { 'idempotency-key': idemKey },
        retryOnOther: true,
      });
      this.stats.payloadMismatchChecks += 1;
      if (other.status !== 0 && other.status !== 429 && other.code !== 'idempotency.payload_mismatch') {
        this.recorder.anomaly(`same key, other body answered ${other.status} ${other.code}, not idempotency.payload_mismatch`);
      }
    }
  }

  private async cancelOne(salon: Salon, key: string, mine: string[]): Promise<void> {
    const i = Math.floor(Math.random() * mine.length);
    const id = mine.splice(i, 1)[0];
    if (!id) return;
    const ack = this.acks.get(id);
    const r = await this.client.call({
      method: 'POST',
      path: `/v1/bookings/${id}/cancel`,
      route: 'POST /v1/bookings/:bookingId/cancel',
      token: key,
      headers: { 'idempotency-key': randomUUID() },
      retryOnOther: true,
    });
    if (r.status === 200) this.stats.cancels += 1;
    if (ack) this.acknowledge(r, salon, ack.service, 'POST /v1/bookings/:bookingId/cancel');
  }

  private async readEvents(salon: Salon, key: string, id: string): Promise<void> {
    const known = this.acks.get(id)?.stateVersion ?? 0;
    const r = await this.client.call({
      method: 'GET',
      path: `/v1/bookings/${id}/events`,
      route: 'GET /v1/bookings/:bookingId/events',
      token: key,
      retryOnOther: true,
    });
    if (r.status !== 200) return;
    const seqs: number[] = (r.body?.data?.events ?? []).map((e: any) => e?.transition?.sequence);
    const contiguous = seqs.every((s, i) => s === i + 1);
    if (!contiguous || seqs.length < known) {
      this.recorder.anomaly(`events of ${id} in ${salon.slug}: sequences [${seqs.join(',')}], acknowledged stateVersion ${known}`);
    }
  }

  private async integrator(salon: Salon, keys: string[]): Promise<void> {
    const mine: string[] = [];
    const ownIds = () => [...this.acks.values()].filter((a) => a.salon === salon);
    while (this.live()) {
      const key = pick(keys);
      const r = Math.random();
      if (r < 0.5) await this.searchAndBook(salon, key, mine);
      else if (r < 0.6 && mine.length > 0) await this.cancelOne(salon, key, mine);
      else if (r < 0.68) {
        await this.client.call({
          method: 'GET',
          path: `/v1/bookings?salonSlug=${salon.slug}&limit=20`,
          route: 'GET /v1/bookings',
          token: key,
          retryOnOther: true,
        });
      } else if (r < 0.9) {
        const acks = ownIds();
        if (acks.length > 0) {
          const id = pick(acks).bookingId;
          if (r < 0.79) {
            await this.client.call({
              method: 'GET',
              path: `/v1/bookings/${id}`,
              route: 'GET /v1/bookings/:bookingId',
              token: key,
              retryOnOther: true,
            });
          } else await this.readEvents(salon, key, id);
        }
      } else if (r < 0.96) {
        const which = pick(['services', 'staff'] as const);
        await this.client.call({
          method: 'GET',
          path: `/v1/${which}?salonSlug=${salon.slug}&locationSlug=${salon.locationSlug}`,
          route: `GET /v1/${which}`,
          token: key,
          retryOnOther: true,
        });
      } else if (r < 0.99) {
        await this.client.call({ method: 'GET', path: '/v1/subscription', route: 'GET /v1/subscription', token: key, retryOnOther: true });
      } else if (salon.webhookConfigured) {
        await this.client.call({
          method: 'GET',
          path: `/v1/webhooks/deliveries?salonSlug=${salon.slug}`,
          route: 'GET /v1/webhooks/deliveries',
          token: key,
          retryOnOther: true,
        });
      }
      await this.think();
    }
  }

  /** A guest-facing partner: it may only read the catalog, search and book. */
  private async partner(salon: Salon): Promise<void> {
    while (this.live()) {
      if (Math.random() < 0.8) await this.searchAndBook(salon, salon.partnerKey, undefined);
      else {
        await this.client.call({
          method: 'GET',
          path: `/v1/services?salonSlug=${salon.slug}&locationSlug=${salon.locationSlug}`,
          route: 'GET /v1/services',
          token: salon.partnerKey,
          retryOnOther: true,
        });
      }
      await this.think();
    }
  }

  /** A standard-tier key polling reads: it meets its rate limit, and 429 is an expected answer. */
  private async standardReader(salon: Salon): Promise<void> {
    while (this.live()) {
      const r = Math.random();
      if (r < 0.5) {
        await this.client.call({
          method: 'GET',
          path: `/v1/bookings?salonSlug=${salon.slug}`,
          route: 'GET /v1/bookings',
          token: salon.standardKey,
          retryOnOther: true,
        });
      } else {
        await this.client.call({
          method: 'GET',
          path: '/v1/subscription',
          route: 'GET /v1/subscription',
          token: salon.standardKey,
          retryOnOther: true,
        });
      }
      await sleep(100 + Math.random() * 200);
    }
  }

  private async operator(): Promise<void> {
    while (this.live()) {
      const open = [...this.acks.values()].filter((a) => ['requested', 'rescheduleProposed', 'confirmed'].includes(a.status));
      if (open.length === 0) {
        await sleep(50);
        continue;
      }
      const a = pick(open);
      const r = Math.random();
      let action: string | undefined;
      let body: unknown;
      if (a.status === 'requested') action = r < 0.6 ? 'accept' : r < 0.8 ? 'decline' : 'propose';
      else if (a.status === 'rescheduleProposed') action = r < 0.7 ? 'accept-proposal' : 'decline';
      else if (r < 0.15) action = 'reschedule';
      if (action === 'propose' || action === 'reschedule') {
        const slots = await this.search(a.salon, a.salon.ownerKeys[0]!, a.service);
        if (slots.length === 0) continue;
        const s = pick(slots);
        body = { date: s.date, startTime: s.startTime, staffId: s.staffId };
      }
      if (action === undefined) {
        await sleep(10);
        continue;
      }
      const res = await this.client.call({
        method: 'POST',
        path: `/admin/v1/bookings/${a.bookingId}/${action}`,
        route: `POST /admin/v1/bookings/:bookingId/${action}`,
        token: this.adminToken,
        ...(body === undefined ? {} : { body }),
      });
      if (res.status === 200) this.stats.operatorActions += 1;
      this.acknowledge(res, a.salon, a.service, `POST /admin/v1/bookings/:bookingId/${action}`);
      await this.think();
    }
  }
}

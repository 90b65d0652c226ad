/**
 * Micro-benchmark of the pure slot engine: 10 staff, Mon-Sat 09:00-18:00, 15-minute grid,
 * 60-minute service, 2,000 busy intervals over a 31-day search (which spans the Budapest
 * spring-forward Sunday). Run: npx tsx bench/availability-engine.ts
 */
import { computeSlots } from '../src/domain/availability/engine.ts';
import type { EngineInput, EngineStaff, Interval } from '../src/domain/availability/types.ts';
import { mulberry32 } from './seeded-random.ts';

const MINUTE = 60_000;
const RUNS = 200;
const WARMUP = 50;

function buildStaff(): EngineStaff[] {
  const random = mulberry32(42);
  const firstDayUtc = Date.UTC(2026, 2, 2); // Monday 2026-03-02
  const staff: EngineStaff[] = [];
  for (let i = 0; i < 10; i++) {
    const busy: Interval[] = [];
    for (let j = 0; j < 200; j++) {
      const day = Math.floor(random() * 31);
      // 08:00-18:00 UTC roughly covers 09:00-18:00 Budapest in both CET and CEST.
      const start = firstDayUtc + day * 86_400_000 + (8 * 60 + Math.floor(random() * 40) * 15) * MINUTE;
      busy.push({ start, end: start + (30 + Math.floor(random() * 5) * 15) * MINUTE });
    }
    staff.push({
      id: `staff-${String(i).padStart(2, '0')}`,
      workingHours: [1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, startMinute: 9 * 60, endMinute: 18 * 60 })),
      timeOff: [],
      busy,
    });
  }
  return staff;
}

function input(bufferAfterMinutes: number, limit: number, staff: EngineStaff[]): EngineInput {
  return {
    timezone: 'Europe/Budapest',
    slotIntervalMinutes: 15,
    minNoticeMinutes: 120,
    horizonDays: 90,
    now: Date.UTC(2026, 2, 1, 12),
    from: '2026-03-02',
    to: '2026-04-01',
    service: { id: 'svc', durationMinutes: 60, bufferBeforeMinutes: 0, bufferAfterMinutes },
    staff,
    limit,
  };
}

function measure(label: string, engineInput: EngineInput): void {
  let total = 0;
  for (let i = 0; i < WARMUP; i++) total += computeSlots(engineInput).total;
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    total += computeSlots(engineInput).total;
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  const p99 = times[Math.min(times.length - 1, Math.ceil(times.length * 0.99) - 1)]!;
  const result = computeSlots(engineInput);
  console.log(
    `${label.padEnd(34)} mean ${mean.toFixed(3)} ms  p99 ${p99.toFixed(3)} ms  ` +
      `(total ${result.total}, returned ${result.slots.length}; checksum ${total})`,
  );
}

const staff = buildStaff();
// The first call also fills the per-(zone, date) offset cache, so it is reported separately.
const t0 = performance.now();
computeSlots(input(10, 500, staff));
console.log(`cold first call (offset cache empty)  ${(performance.now() - t0).toFixed(3)} ms`);
for (const buffer of [0, 10]) {
  for (const limit of [500, Infinity]) {
    measure(`buffers 0/${buffer}, limit ${limit}`, input(buffer, limit, staff));
  }
}

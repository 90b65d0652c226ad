/**
 * Engine time for salon-scheduling.md "Speed": a 31-day search of a location with 10 staff, 3
 * resources, processing-time services and 2,000 bookings under 5 ms; explain under 2 ms. Only the
 * pure functions of loaded inputs are timed (the data is built first, bench/salon-engine-data.ts),
 * in wall time and in this process's CPU time (process.cpuUsage), which other processes on a busy
 * machine do not inflate. Run: npm run bench:engine
 *
 * Verdict per target: the median CPU time decides (a real regression moves it; noise does not);
 * the p99 is printed beside it and flagged when over, never failed on, so a loaded machine gives
 * an honest table instead of a flaky exit code. Exit 1 only when a median is over its target.
 */
import { loadavg } from 'node:os';
import { computeSlots } from '../src/domain/availability/engine.ts';
import { explainTime, type ExplainStaff } from '../src/domain/availability/explain.ts';
import { openSlots } from '../src/domain/availability/open-slots.ts';
import type { EngineInput, Interval } from '../src/domain/availability/types.ts';
import { DAY_MS, parseIsoDate } from '../src/domain/time/calendar.ts';
import { FROM, RESOURCES, SERVICES, salonMonth, TIMEZONE, TO, type BenchService } from './salon-engine-data.ts';

const SEARCH_TARGET_MS = 5;
const EXPLAIN_TARGET_MS = 2;

interface Sample {
  wall: number[];
  cpu: number[];
}

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * q) - 1))]!;
}

/** Runs `fn` `warmup` times unmeasured (JIT, caches), then `runs` times measured; ms. */
function measure(fn: () => number, warmup: number, runs: number): Sample & { checksum: number } {
  let checksum = 0;
  for (let i = 0; i < warmup; i++) checksum += fn();
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    checksum += fn();
    const t1 = performance.now();
    const c = process.cpuUsage(c0);
    wall.push(t1 - t0);
    cpu.push((c.user + c.system) / 1000);
  }
  wall.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  return { wall, cpu, checksum };
}

// Read before anything runs: the load the measurements were taken under, not the one they made.
const loadBefore = loadavg();
const month = salonMonth();
const now = Date.UTC(2026, 2, 15, 9); // the Sunday before FROM, so the whole range is bookable
const location = { timezone: TIMEZONE, slotIntervalMinutes: 15, minNoticeMinutes: 60, horizonDays: 90 };
const resourcesOf = (s: BenchService) => s.resourceIds.map((id) => month.resources.get(id)!);
const byId = (id: string) => SERVICES.find((s) => s.id === id)!;

function searchInput(service: BenchService, limit: number): EngineInput {
  return { ...location, now, from: FROM, to: TO, service, staff: month.staff, resources: resourcesOf(service), limit };
}

/** What explain's use case loads: the one day's window (searchWindow), bookings kept as `booked`. */
function explainStaff(service: BenchService, date: string, ids: readonly string[] | null): ExplainStaff[] {
  const day = parseIsoDate(date);
  const margin = DAY_MS + (service.bufferBeforeMinutes + service.bufferAfterMinutes + service.durationMinutes) * 60_000;
  const [from, to] = [day * DAY_MS - margin, (day + 1) * DAY_MS + margin];
  const within = (list: readonly Interval[]) => list.filter((i) => i.start < to && from < i.end);
  return month.staff
    .filter((s) => ids === null || ids.includes(s.id))
    .map((s) => ({ id: s.id, workingHours: s.workingHours, timeOff: within(s.timeOff), booked: within(s.busy), held: [] }));
}

interface Row {
  label: string;
  target: number;
  sample: Sample;
  note: string;
}

const rows: Row[] = [];
const colour = byId('svc_colour');
const balayage = byId('svc_balayage');
const cut = byId('svc_cut');

// The first call also fills the per-(zone, date) offset cache; reported apart from the warm runs.
const cold0 = performance.now();
const coldTotal = computeSlots(searchInput(colour, 500)).total;
const coldMs = performance.now() - cold0;

for (const [service, label] of [
  [colour, 'search Colour (basin), all slots'],
  [balayage, 'search Balayage (basin+station)'],
  [cut, 'search Cut (no resources)'],
] as const) {
  // openSlots is what a search runs on a cache miss (every slot of the range, bounded afterwards).
  const s = measure(() => openSlots(searchInput(service, Infinity)).length, 30, 300);
  rows.push({ label, target: SEARCH_TARGET_MS, sample: s, note: `${openSlots(searchInput(service, Infinity)).length} slots` });
}
{
  const s = measure(() => computeSlots(searchInput(colour, 500)).total, 30, 300);
  rows.push({ label: 'search Colour, limit 500 (booking check)', target: SEARCH_TARGET_MS, sample: s, note: `total ${coldTotal}` });
}

// Explain at a busy time on the Monday after the clocks changed.
const explainAt = { date: '2026-03-30', startTime: '10:30' };
const explainInput = (ids: readonly string[] | null) => ({
  ...location,
  now,
  ...explainAt,
  service: balayage,
  staff: explainStaff(balayage, explainAt.date, ids),
  resources: resourcesOf(balayage),
});
{
  const one = explainInput([month.staff[0]!.id]);
  const s = measure(() => explainTime(one).length, 300, 3000);
  const reasons = explainTime(one)[0]!.reasons.join(',') || 'bookable';
  rows.push({ label: 'explain one (staff, time)', target: EXPLAIN_TARGET_MS, sample: s, note: reasons });
  const all = explainInput(null);
  rows.push({
    label: 'explain all 10 staff',
    target: EXPLAIN_TARGET_MS,
    sample: measure(() => explainTime(all).length, 300, 3000),
    note: '',
  });
}

const f = (ms: number) => ms.toFixed(3).padStart(7);
const load = (averages = loadavg()) => averages.map((l) => l.toFixed(2)).join(' ');
console.log(
  `salon engine: 10 staff, ${RESOURCES.map((r) => `${r.name} ×${r.quantity}`).join(', ')}; ` +
    `${month.placed} bookings placed (${month.attempts} attempts), ${FROM}..${TO} ${TIMEZONE}`,
);
console.log(`node ${process.version}; load average before ${load(loadBefore)}; cold first search ${coldMs.toFixed(2)} ms`);
console.log(
  `${'case'.padEnd(42)} ${'wall p50'.padStart(8)} ${'wall p99'.padStart(8)} ${'cpu p50'.padStart(8)} ${'cpu p99'.padStart(8)}  target  verdict`,
);
let failed = false;
for (const r of rows) {
  const [w50, w99, c50, c99] = [
    quantile(r.sample.wall, 0.5),
    quantile(r.sample.wall, 0.99),
    quantile(r.sample.cpu, 0.5),
    quantile(r.sample.cpu, 0.99),
  ];
  const pass = c50 < r.target && w50 < r.target;
  if (!pass) failed = true;
  // Wall time over with CPU time under is time spent waiting for a core (a loaded machine); CPU
  // time over at the p99 only is a collection or a recompilation landing in that run.
  const verdict = !pass
    ? 'FAIL (median over)'
    : c99 >= r.target
      ? 'pass at p50; cpu p99 over (GC/JIT)'
      : w99 >= r.target
        ? 'pass; wall p99 over (waiting for a core)'
        : 'pass';
  console.log(`${r.label.padEnd(42)} ${f(w50)}  ${f(w99)}  ${f(c50)}  ${f(c99)}  <${String(r.target).padEnd(5)} ${verdict}  ${r.note}`);
}
console.log(`load average after: ${load()}`);
if (month.placed < 2_000) {
  console.log(`only ${month.placed} of 2,000 bookings could be placed`);
  failed = true;
}
process.exitCode = failed ? 1 : 0;

/** The tables the soak prints at the end (plain text, fixed-width, pasteable into Markdown). */
import type { InvariantResult } from './invariants.ts';
import { percentile, type Recorder } from './recorder.ts';

function table(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

export function requestTable(recorder: Recorder, workloadMs: number): string {
  const byRoute = new Map<string, { lat: number[]; statuses: Map<string, number> }>();
  for (const r of recorder.records) {
    const e = byRoute.get(r.route) ?? { lat: [], statuses: new Map<string, number>() };
    e.lat.push(r.endMs - r.startMs);
    const key = r.status === 0 ? `ERR ${r.code}` : r.status < 400 ? String(r.status) : `${r.status} ${r.code}`;
    e.statuses.set(key, (e.statuses.get(key) ?? 0) + 1);
    byRoute.set(r.route, e);
  }
  const rows = [...byRoute]
    .sort((a, b) => b[1].lat.length - a[1].lat.length)
    .map(([route, e]) => {
      const sorted = [...e.lat].sort((a, b) => a - b);
      const statuses = [...e.statuses]
        .sort((a, b) => b[1] - a[1])
        .map(([s, n]) => `${s}: ${n}`)
        .join(', ');
      return [route, String(sorted.length), `${percentile(sorted, 50)}`, `${percentile(sorted, 99)}`, statuses];
    });
  const total = recorder.records.length;
  const all = recorder.records.map((r) => r.endMs - r.startMs).sort((a, b) => a - b);
  rows.push([
    'all',
    String(total),
    String(percentile(all, 50)),
    String(percentile(all, 99)),
    `${(total / (workloadMs / 1000)).toFixed(1)} requests/s over the workload`,
  ]);
  return table(['route', 'requests', 'p50 ms', 'p99 ms', 'statuses'], rows);
}

export function statusTable(recorder: Recorder): string {
  const counts = new Map<string, number>();
  for (const r of recorder.records) {
    const key = r.status === 0 ? `transport error (${r.code})` : r.status < 400 ? String(r.status) : `${r.status} ${r.code}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return table(
    ['status', 'requests'],
    [...counts].sort((a, b) => b[1] - a[1]).map(([s, n]) => [s, String(n)]),
  );
}

export function invariantTable(results: InvariantResult[]): string {
  return table(
    ['invariant', 'result', 'detail'],
    results.map((r) => [r.name, r.outcome === 'fail' ? 'FAIL' : r.outcome, r.detail]),
  );
}

export function factsTable(facts: Array<[string, string]>): string {
  return table(['measure', 'value'], facts);
}

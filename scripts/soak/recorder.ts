/**
 * Every request the soak makes: route pattern, status (0 for a transport error), catalog code,
 * latency and when it ran. The invariants and the report read this, never the clients' own notes.
 */
export interface RequestRecord {
  route: string;
  status: number;
  /** the catalog code of an error response, or the transport error's name */
  code: string | undefined;
  startMs: number;
  endMs: number;
  /** which API process answered (0 or 1), or -1 for the operator's own checks */
  api: number;
}

export interface KillWindow {
  killedAt: number;
  /** when the restarted API first answered /readyz */
  readyAt: number | undefined;
  /** the margin added after readyAt: requests overlapping [killedAt, readyAt + margin] may fail */
  marginMs: number;
  /** the API process killed (its index); only its requests are excused */
  api: number;
}

export class Recorder {
  readonly records: RequestRecord[] = [];
  readonly startedAt = Date.now();
  kill: KillWindow | undefined;
  /** problems seen while the workload ran (a replay that returned another booking, ...) */
  readonly anomalies: string[] = [];

  add(r: RequestRecord): void {
    this.records.push(r);
  }

  anomaly(text: string): void {
    if (this.anomalies.length < 200) this.anomalies.push(text);
  }

  /**
   * Whether a request went to the killed process and overlapped the kill window: its failure is
   * expected, not a broken promise. The surviving process gets no such excuse.
   */
  inKillWindow(r: Pick<RequestRecord, 'startMs' | 'endMs' | 'api'>): boolean {
    const k = this.kill;
    if (!k || r.api !== k.api) return false;
    const end = (k.readyAt ?? Number.POSITIVE_INFINITY) + k.marginMs;
    return r.endMs >= k.killedAt && r.startMs <= end;
  }
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

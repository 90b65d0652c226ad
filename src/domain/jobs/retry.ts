/**
 * What happens after a job's run failed, as a pure rule: another run after the handler's next
 * delay, or the end. `retryDelaysMs[i]` is the wait before run i + 2 (the first run is not a
 * retry), so a policy of n delays allows n + 1 runs in all.
 */
export type AfterFailure = { status: 'retry_scheduled'; waitMs: number } | { status: 'failed' };

export function afterFailure(attempt: number, retryDelaysMs: readonly number[]): AfterFailure {
  const wait = retryDelaysMs[attempt - 1];
  return wait === undefined ? { status: 'failed' } : { status: 'retry_scheduled', waitMs: wait };
}

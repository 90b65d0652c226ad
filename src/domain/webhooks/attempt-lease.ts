/**
 * How long a claim holds a delivery: longer than any attempt can take (an attempt is cut at
 * WEBHOOK_TIMEOUT_MS; twice that plus a second of slack), so only a dead or frozen sender's claim
 * ever lapses. The worker's claims and a redelivery's use the same rule.
 */
export function attemptLeaseMs(webhookTimeoutMs: number): number {
  return 2 * webhookTimeoutMs + 1_000;
}

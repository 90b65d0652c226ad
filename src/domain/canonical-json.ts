/**
 * Canonical JSON for fingerprints: object keys sorted, null members dropped, so two requests that
 * mean the same thing hash the same whatever the client's key order.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(canonicalize(value));
}

function canonicalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => (v === null ? null : canonicalize(v)));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[k];
      if (v === null || v === undefined) continue;
      out[k] = canonicalize(v);
    }
    return out;
  }
  return value;
}

/**
 * A document's ```http blocks as runnable steps: a request block (`METHOD /path`, header lines, a
 * blank line, an optional JSON body) followed by the answer block (`HTTP/1.1 201 Created`, a blank
 * line, the JSON the document shows). The answer is a pattern, so the prose can show only the
 * fields that matter and still be held to every value it shows (see matchShown).
 */

export interface DocRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** the JSON text as written (variables not yet substituted) */
  body: string | undefined;
}

export interface DocStep {
  /** the request line, for messages */
  title: string;
  request: DocRequest;
  status: number;
  /** the answer's JSON as written; undefined when the document shows none */
  shown: unknown;
}

export function httpBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```http\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

/** Splits a block into its first line, its header lines and its body (after the first blank line). */
function parts(block: string): { first: string; headers: string[]; body: string | undefined } {
  const [head, ...rest] = block.split(/\n\s*\n/);
  const lines = head!.split('\n').filter((l) => l.trim() !== '');
  const body = rest.join('\n\n').trim();
  return { first: lines[0]!, headers: lines.slice(1), body: body === '' ? undefined : body };
}

/** Pairs every request block with the answer block right after it; anything else is a document error. */
export function docSteps(markdown: string): DocStep[] {
  const blocks = httpBlocks(markdown).map(parts);
  const steps: DocStep[] = [];
  for (let i = 0; i < blocks.length; i += 2) {
    const req = blocks[i]!;
    const res = blocks[i + 1];
    const line = /^(GET|POST|PATCH|PUT|DELETE) (\/\S*)$/.exec(req.first);
    if (!line) throw new Error(`block ${i + 1} is not a request line: ${req.first}`);
    const status = res && /^HTTP\/1\.1 (\d{3})\b/.exec(res.first);
    if (!status) throw new Error(`${req.first}: the next block is not its answer (HTTP/1.1 NNN …)`);
    const headers: Record<string, string> = {};
    for (const h of req.headers) {
      const m = /^([A-Za-z-]+):\s*(.*)$/.exec(h);
      if (!m) throw new Error(`${req.first}: not a header line: ${h}`);
      headers[m[1]!.toLowerCase()] = m[2]!;
    }
    steps.push({
      title: req.first,
      request: { method: line[1]!, path: line[2]!, headers, body: req.body },
      status: Number(status[1]),
      shown: res!.body === undefined ? undefined : JSON.parse(res!.body),
    });
  }
  return steps;
}

/** Replaces each `$NAME` with its value; an unknown name is an error (a step depends on an earlier one). */
export function substitute(text: string, vars: ReadonlyMap<string, string>): string {
  return text.replace(/\$([A-Z][A-Z0-9_]*)/g, (_, name: string) => {
    const value = vars.get(name);
    if (value === undefined) throw new Error(`$${name} is used before an answer showed it`);
    return value;
  });
}

export const ELIDED = '...';

/**
 * Whether `actual` shows what `shown` says, binding `"$NAME"` strings into `vars` the first time.
 * Objects: every key shown is there with a matching value (keys not shown are not checked).
 * Lists: element by element, with `"..."` standing for any run of elements; without one, the
 * lengths are equal. Everything else: equal. Returns the path of the first difference, or null.
 */
export function matchShown(shown: unknown, actual: unknown, vars: Map<string, string>, path = '$'): string | null {
  if (typeof shown === 'string') {
    const v = /^\$([A-Z][A-Z0-9_]*)$/.exec(shown);
    if (v) {
      if (typeof actual !== 'string') return `${path}: expected a string for ${shown}, got ${JSON.stringify(actual)}`;
      const bound = vars.get(v[1]!);
      if (bound === undefined) {
        vars.set(v[1]!, actual);
        return null;
      }
      return bound === actual ? null : `${path}: expected ${shown} (${bound}), got ${actual}`;
    }
  }
  if (Array.isArray(shown)) {
    if (!Array.isArray(actual)) return `${path}: expected a list, got ${JSON.stringify(actual)}`;
    return matchList(shown, actual, vars, path);
  }
  if (shown !== null && typeof shown === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) {
      return `${path}: expected an object, got ${JSON.stringify(actual)}`;
    }
    for (const [k, v] of Object.entries(shown)) {
      if (!(k in actual)) return `${path}.${k}: missing`;
      const d = matchShown(v, (actual as Record<string, unknown>)[k], vars, `${path}.${k}`);
      if (d) return d;
    }
    return null;
  }
  return shown === actual ? null : `${path}: expected ${JSON.stringify(shown)}, got ${JSON.stringify(actual)}`;
}

/** A glob over lists: tries each placement of the elements after a `"..."`, binding only on success. */
function matchList(shown: readonly unknown[], actual: readonly unknown[], vars: Map<string, string>, path: string): string | null {
  const go = (s: number, a: number, bound: Map<string, string>): Map<string, string> | string => {
    if (s === shown.length) return a === actual.length ? bound : `${path}: ${actual.length - a} more entries than shown`;
    if (shown[s] === ELIDED) {
      for (let skip = a; skip <= actual.length; skip++) {
        const r = go(s + 1, skip, bound);
        if (typeof r !== 'string') return r;
      }
      // Every placement failed; the last one tried says little, so name what was looked for.
      const next = shown.slice(s + 1).find((x) => x !== ELIDED);
      return `${path}: from [${a}] on, no run of entries matches what is shown after "..."${next === undefined ? '' : ` (starting with ${JSON.stringify(next)})`}`;
    }
    if (a === actual.length) return `${path}[${a}]: missing (${JSON.stringify(shown[s])})`;
    const trial = new Map(bound);
    const d = matchShown(shown[s], actual[a], trial, `${path}[${a}]`);
    return d ?? go(s + 1, a + 1, trial);
  };
  const r = go(0, 0, vars);
  if (typeof r === 'string') return r;
  for (const [k, v] of r) vars.set(k, v);
  return null;
}

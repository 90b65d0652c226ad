/**
 * Looks for secrets in log text in every form a logger could have written them: as text (any
 * case), hex, base64 and base64url at each of the three byte alignments (the secret inside a larger
 * encoded buffer), and as a JSON byte array (`[80,79,83,84,…]`, how a Buffer serialises).
 */

export interface Secret {
  name: string;
  value: string;
}

interface Needle {
  form: string;
  pattern: RegExp;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The characters of `bytes`' base64 that only `bytes` decide, when they start `offset` bytes into a buffer. */
function base64Core(bytes: Buffer, offset: number): string {
  const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
  const first = offset;
  const last = offset + bytes.length - 1;
  let out = '';
  for (let c = 0; c < encoded.length; c++) {
    const from = Math.floor((6 * c) / 8);
    const to = Math.floor((6 * c + 5) / 8);
    if (from >= first && to <= last) out += encoded[c];
  }
  return out;
}

function needlesOf(value: string): Needle[] {
  const bytes = Buffer.from(value, 'utf8');
  const needles: Needle[] = [
    { form: 'text', pattern: new RegExp(escapeRegExp(value), 'i') },
    { form: 'hex', pattern: new RegExp(bytes.toString('hex'), 'i') },
    { form: 'byte array', pattern: new RegExp(`(?<![0-9])${[...bytes].join(',')}(?![0-9])`) },
  ];
  const uri = encodeURIComponent(value);
  if (uri !== value) needles.push({ form: 'percent-encoded', pattern: new RegExp(escapeRegExp(uri), 'i') });
  for (let offset = 0; offset < 3; offset++) {
    const core = base64Core(bytes, offset);
    needles.push({ form: `base64 (offset ${offset})`, pattern: new RegExp(escapeRegExp(core)) });
    const url = core.replace(/\+/g, '-').replace(/\//g, '_');
    if (url !== core) needles.push({ form: `base64url (offset ${offset})`, pattern: new RegExp(escapeRegExp(url)) });
  }
  return needles;
}

/** One line per secret, form and log line where a secret shows; empty when the text is clean. */
export function findLeaks(text: string, secrets: Secret[]): string[] {
  const leaks: string[] = [];
  const lines = text.split('\n');
  for (const s of secrets) {
    if (s.value.length < 6) throw new Error(`${s.name}: too short to look for without false alarms`);
    for (const n of needlesOf(s.value)) {
      lines.forEach((line, i) => {
        // a byte array may be pretty-printed: `[80, 79, 83]`
        const subject = n.form === 'byte array' ? line.replace(/,\s+/g, ',') : line;
        if (n.pattern.test(subject)) leaks.push(`${s.name} as ${n.form} in log line ${i + 1}: ${line.slice(0, 300)}`);
      });
    }
  }
  return leaks;
}

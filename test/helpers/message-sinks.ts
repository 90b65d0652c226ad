/**
 * The far ends of guest messages in tests: a real SMTP server (smtp-server) that may refuse the
 * first DATA commands with 451, and a real HTTP server standing for the SMS gateway; plus a small
 * MIME reader for what they received (headers, text, HTML and calendar parts).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface SinkMail {
  to: string[];
  raw: string;
  at: number;
}

export interface MailSink {
  url: string;
  mails: SinkMail[];
  /** DATA commands refused so far */
  refused: number;
  close(): Promise<void>;
}

/** `refuseFirst`: the first N messages are refused at DATA with 451 (a temporary failure); `delayMs`: each answer to DATA waits this long. */
export async function startMailSink(
  opts: { refuseFirst?: number; refuseAll?: boolean; refusalText?: (to: string[]) => string; delayMs?: number } = {},
): Promise<MailSink> {
  const sink: MailSink = { url: '', mails: [], refused: 0, close: async () => {} };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', async () => {
        // a slow server keeps sends in flight (a worker killed mid-burst)
        if (opts.delayMs) await new Promise((r) => setTimeout(r, opts.delayMs));
        if (opts.refuseAll || sink.refused < (opts.refuseFirst ?? 0)) {
          sink.refused += 1;
          const text = opts.refusalText?.(session.envelope.rcptTo.map((r) => r.address)) ?? 'try again later';
          return callback(Object.assign(new Error(text), { responseCode: 451 }));
        }
        sink.mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
        callback();
      });
    },
  });
  // A client that dies mid-session (a worker SIGKILLed while sending) resets its connection: what a
  // mail server sees every day, not a failure of the test.
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  sink.url = `smtp://127.0.0.1:${port}`;
  sink.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return sink;
}

export interface SmsSink {
  url: string;
  received: Array<{ body: { to: string; text: string; messageId: string }; signature: string; raw: string }>;
  close(): Promise<void>;
}

export async function startSmsSink(): Promise<SmsSink> {
  const received: SmsSink['received'] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      received.push({ body: JSON.parse(raw), signature: String(req.headers['x-service-signature'] ?? ''), raw });
      res.writeHead(202).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/sms`, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

export interface ParsedMail {
  headers: Record<string, string>;
  subject: string;
  messageId: string;
  text: string;
  html: string;
  /** every text/calendar or .ics part, decoded */
  calendars: string[];
}

function decodeWords(s: string): string {
  return s.replace(/=\?utf-8\?([qb])\?([^?]*)\?=\s*/gi, (_m, enc: string, data: string) =>
    enc.toLowerCase() === 'b'
      ? Buffer.from(data, 'base64').toString('utf8')
      : Buffer.from(
          data.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16))),
          'latin1',
        ).toString('utf8'),
  );
}

function splitHead(part: string): { headers: Record<string, string>; body: string } {
  const at = part.search(/\r?\n\r?\n/);
  const head = at < 0 ? part : part.slice(0, at);
  const body = at < 0 ? '' : part.slice(at).replace(/^\r?\n\r?\n/, '');
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return { headers, body };
}

function decodeBody(headers: Record<string, string>, body: string): string {
  const enc = (headers['content-transfer-encoding'] ?? '').toLowerCase();
  if (enc === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (enc === 'quoted-printable') {
    const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

export function parseMail(raw: string): ParsedMail {
  const top = splitHead(raw);
  const out: ParsedMail = {
    headers: top.headers,
    subject: decodeWords(top.headers.subject ?? ''),
    messageId: top.headers['message-id'] ?? '',
    text: '',
    html: '',
    calendars: [],
  };
  const walk = (headers: Record<string, string>, body: string) => {
    const type = (headers['content-type'] ?? 'text/plain').toLowerCase();
    const boundary = /boundary="?([^";]+)"?/i.exec(headers['content-type'] ?? '')?.[1];
    if (type.startsWith('multipart/') && boundary) {
      for (const piece of body.split(`--${boundary}`).slice(1)) {
        if (piece.startsWith('--')) break;
        const p = splitHead(piece.replace(/^\r?\n/, ''));
        walk(p.headers, p.body);
      }
      return;
    }
    const text = decodeBody(headers, body);
    if (type.startsWith('text/calendar') || type.startsWith('application/ics')) out.calendars.push(text);
    else if (type.startsWith('text/html')) out.html += text;
    else if (type.startsWith('text/plain')) out.text += text;
  };
  walk(top.headers, top.body);
  return out;
}

/** Polls `predicate` every 50 ms until it holds, or throws after `timeoutMs`. */
export async function waitUntil(what: string, predicate: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

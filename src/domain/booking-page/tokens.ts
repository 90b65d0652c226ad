import { randomBytes } from 'node:crypto';
import { signToken, verifyToken } from '../signed-token.ts';

/**
 * The booking page's signed tokens (docs/guest-pages.md "Tokens"). Each travels in a URL or a
 * hidden field, so the page keeps no server-side session: what the guest chose is in the token,
 * and the signature (the server secret, under a purpose label per kind) is what makes it trusted.
 */

/** A chosen time: a hold of a staff member's time, or a seat of a group session (no hold). */
export type Choice =
  | {
      k: 'hold';
      /** the hold's id */
      h: string;
      /** service id */
      s: string;
      /** the staff member the guest asked for; null for `Any staff` */
      st: string | null;
      /** the staff member the hold took, by name */
      n: string;
      /** location-local date and start */
      d: string;
      t: string;
      /** the hold's expiry, ms since the epoch */
      x: number;
      /** a visit's hold: every part in order (the first is `s` at `t`); absent for one service */
      v?: VisitChoicePart[];
    }
  | {
      k: 'session';
      /** the session's id and the slot token the search signed for it */
      g: string;
      tok: string;
      s: string;
      n: string;
      d: string;
      t: string;
    };

/** One part of a held visit: its service, the staff member the hold took, its start and end. */
export interface VisitChoicePart {
  s: string;
  n: string;
  t: string;
  e: string;
}

/** The services a choice is for, in order: a visit's parts, or its one service. */
export function choiceServiceIds(c: Choice): string[] {
  return c.k === 'hold' && c.v ? c.v.map((p) => p.s) : [c.s];
}

function isVisitParts(v: unknown): v is VisitChoicePart[] {
  return (
    Array.isArray(v) &&
    v.length >= 2 &&
    v.every((p) => p && typeof p === 'object' && ['s', 'n', 't', 'e'].every((k) => typeof (p as Record<string, unknown>)[k] === 'string'))
  );
}

const CHOICE = 'bookingPage.choice';
const FORM = 'bookingPage.form';
const DONE = 'bookingPage.done';

export function signChoice(secret: Buffer, choice: Choice): string {
  return signToken(secret, CHOICE, choice);
}

export function readChoice(secret: Buffer, token: unknown): Choice | undefined {
  if (typeof token !== 'string') return undefined;
  const c = verifyToken<Choice>(secret, CHOICE, token);
  if (!c || typeof c !== 'object' || typeof c.s !== 'string' || typeof c.d !== 'string' || typeof c.t !== 'string') return undefined;
  if (c.k === 'hold' && typeof c.h === 'string' && typeof c.x === 'number' && (c.v === undefined || isVisitParts(c.v))) return c;
  if (c.k === 'session' && typeof c.g === 'string' && typeof c.tok === 'string') return c;
  return undefined;
}

/**
 * The details form's token: the idempotency key of the booking it makes. A held time's key is its
 * hold (one hold makes at most one booking, however often the form is sent or rendered); a group
 * seat's is a fresh nonce per rendering of the form.
 */
export interface FormToken {
  /** the key */
  n: string;
  /** the choice it was rendered for: a form token is valid only with its own choice */
  c: string;
}

export function formKeyOf(choice: Choice): string {
  return choice.k === 'hold' ? `hold:${choice.h}` : `seat:${randomBytes(16).toString('base64url')}`;
}

export function signFormToken(secret: Buffer, key: string, choiceToken: string): string {
  return signToken(secret, FORM, { n: key, c: choiceDigest(choiceToken) } satisfies FormToken);
}

/** The form's idempotency key, when the token is ours and was made for this choice. */
export function readFormToken(secret: Buffer, token: unknown, choiceToken: string): string | undefined {
  if (typeof token !== 'string') return undefined;
  const f = verifyToken<FormToken>(secret, FORM, token);
  if (!f || typeof f.n !== 'string' || f.c !== choiceDigest(choiceToken)) return undefined;
  return f.n;
}

function choiceDigest(choiceToken: string): string {
  // The choice token's own signature is unique to it and already a MAC: its tail names it.
  return choiceToken.slice(choiceToken.lastIndexOf('.') + 1, choiceToken.lastIndexOf('.') + 23);
}

/** The done page's token: the booking, and its deposit payment link while it is known. */
export interface DoneToken {
  b: string;
  p?: string;
}

export function signDone(secret: Buffer, done: DoneToken): string {
  return signToken(secret, DONE, done);
}

export function readDone(secret: Buffer, token: unknown): DoneToken | undefined {
  if (typeof token !== 'string') return undefined;
  const d = verifyToken<DoneToken>(secret, DONE, token);
  if (!d || typeof d.b !== 'string' || (d.p !== undefined && typeof d.p !== 'string')) return undefined;
  return d;
}

import { newId } from '../../domain/ids.ts';
import { linkToken, linkTokenHash, newLinkNonce } from '../../domain/guest-links.ts';
import { AppError } from '../../domain/errors.ts';
import { findBooking } from '../../store/bookings.ts';
import type { Db, Queryable } from '../../store/db.ts';
import { bookingOfManageToken, ensureManageNonce, replaceManageToken } from '../../store/manage-tokens.ts';

export interface LinkContext {
  secret: Buffer;
  publicBaseUrl: string;
}

function fresh(secret: Buffer): { id: string; nonce: string; tokenHash: string } {
  const nonce = newLinkNonce();
  return { id: newId('mgt'), nonce, tokenHash: linkTokenHash(linkToken(secret, 'manage', nonce)) };
}

/** The link of a live token's nonce (read with a message row, so its send writes nothing). */
export function manageUrlOf(ctx: LinkContext, nonce: string): string {
  return `${ctx.publicBaseUrl}/manage/${linkToken(ctx.secret, 'manage', nonce)}`;
}

/** The booking's manage link (guest-side.md "Self-service"): its live token, made on first need. */
export async function manageUrl(q: Queryable, ctx: LinkContext, booking: { id: string; businessId: string }): Promise<string> {
  const nonce = await ensureManageNonce(q, { businessId: booking.businessId, bookingId: booking.id, ...fresh(ctx.secret) });
  return `${ctx.publicBaseUrl}/manage/${linkToken(ctx.secret, 'manage', nonce)}`;
}

/** POST /admin/v1/bookings/{id}/manage-link: a new link; the old one opens nothing from now on. */
export async function newManageUrl(tx: Queryable, ctx: LinkContext, booking: { id: string; businessId: string }): Promise<string> {
  const row = fresh(ctx.secret);
  await replaceManageToken(tx, { businessId: booking.businessId, bookingId: booking.id, ...row });
  return `${ctx.publicBaseUrl}/manage/${linkToken(ctx.secret, 'manage', row.nonce)}`;
}

/** POST /admin/v1/bookings/{bookingId}/manage-link: the route has authorised the caller for the booking. */
export async function issueManageLink(db: Db, ctx: LinkContext, bookingId: string): Promise<string> {
  return db.transaction(async (tx) => {
    const booking = await findBooking(tx, null, bookingId);
    if (!booking) throw new AppError('booking.not_found');
    return newManageUrl(tx, ctx, booking);
  });
}

/** The booking a manage token opens, while it is the live one. */
export function bookingOfManageLink(q: Queryable, token: string): Promise<{ bookingId: string; businessId: string } | undefined> {
  return bookingOfManageToken(q, linkTokenHash(token));
}

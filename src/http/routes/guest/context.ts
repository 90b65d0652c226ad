import type { FastifyRequest } from 'fastify';
import { AppError } from '../../../domain/errors.ts';
import type { LocationRecord } from '../../../domain/catalog-records.ts';
import { type BookingPage, openBookingPage, pageLocation } from '../../../use-cases/guest/page.ts';
import type { App } from '../../context.ts';
import type { Framing, PageFrame } from './kit.tsx';
import type { Lang } from '../../../ui/i18n/index.ts';

/** A string of a query or form (the first of repeated values), or undefined. */
export function field(source: unknown, name: string): string | undefined {
  if (!source || typeof source !== 'object') return undefined;
  const v = (source as Record<string, unknown>)[name];
  const s = Array.isArray(v) ? v[0] : v;
  return typeof s === 'string' && s.length <= 4096 ? s : undefined;
}

export function bookPath(salonSlug: string, locationSlug?: string, rest = ''): string {
  return `/book/${encodeURIComponent(salonSlug)}${locationSlug === undefined ? '' : `/${encodeURIComponent(locationSlug)}`}${rest}`;
}

/** The business of a `/book/{salonSlug}` request; a closed or unknown page is the 404 page. */
export async function pageOf(app: App, salonSlug: string): Promise<BookingPage> {
  const page = await openBookingPage(app.ctx.db, salonSlug, app.ctx.caches);
  if (!page) throw new AppError('request.not_found');
  return page;
}

export async function locationOf(
  app: App,
  salonSlug: string,
  locationSlug: string,
): Promise<{ page: BookingPage; location: LocationRecord }> {
  const page = await pageOf(app, salonSlug);
  const location = pageLocation(page, locationSlug);
  if (!location) throw new AppError('request.not_found');
  return { page, location };
}

/** Branding applies only with the plan's bookingPageBranding. */
export function brandOf(page: BookingPage): { accentColor: string | null; logoUrl: string | null } {
  if (!page.branding) return { accentColor: null, logoUrl: null };
  return { accentColor: page.settings.bookingPage.accentColor, logoUrl: page.settings.bookingPage.logoUrl };
}

export function framingOf(page: BookingPage): Framing {
  const { logoUrl } = brandOf(page);
  return { embedOrigins: page.settings.bookingPage.embedOrigins, imageOrigin: logoUrl ? new URL(logoUrl).origin : undefined };
}

/** The frame of a page of this business. */
export function frameOf(page: BookingPage, lang: Lang, title: string, here: PageFrame['here'], noindex = false): PageFrame {
  return { lang, title, businessName: page.business.name, ...brandOf(page), here, noindex };
}

export type { FastifyRequest };

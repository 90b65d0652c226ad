import { createHash } from 'node:crypto';
import { BOOKING_CSS, accentCss } from '../../../ui/assets/booking-css.ts';
import { BOOKING_JS } from '../../../ui/assets/booking-js.ts';
import type { PageAssets } from '../../../ui/booking/layout.tsx';

interface Asset {
  body: string;
  type: string;
}

function hashed(stem: string, ext: string, body: string): [string, Asset] {
  const hash = createHash('sha256').update(body).digest('base64url').slice(0, 12);
  return [`${stem}.${hash}.${ext}`, { body, type: ext === 'css' ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8' }];
}

const [cssName, cssAsset] = hashed('booking', 'css', BOOKING_CSS);
const [jsName, jsAsset] = hashed('booking', 'js', BOOKING_JS);
const FIXED = new Map<string, Asset>([
  [cssName, cssAsset],
  [jsName, jsAsset],
]);

// Beside /book/, not under it: under it a business whose slug is `assets` lost its page to these.
export const ASSET_PREFIX = '/book-assets/';

/** An accent stylesheet is named by its colour: the name is its content, so it caches as long. */
const ACCENT = /^accent-([0-9a-f]{6})\.css$/;

/** The stylesheet and script of every page (and the business's accent, with branding). */
export function pageAssets(accentColor: string | null): PageAssets {
  return {
    css: ASSET_PREFIX + cssName,
    js: ASSET_PREFIX + jsName,
    accentCss: accentColor ? `${ASSET_PREFIX}accent-${accentColor.slice(1).toLowerCase()}.css` : undefined,
  };
}

/** The asset a name under /book-assets/ stands for; undefined for any other name. */
export function findAsset(name: string): Asset | undefined {
  const fixed = FIXED.get(name);
  if (fixed) return fixed;
  const m = ACCENT.exec(name);
  return m ? { body: accentCss(`#${m[1]}`), type: 'text/css; charset=utf-8' } : undefined;
}

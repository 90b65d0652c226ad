import { createHash } from 'node:crypto';
import type { FastifySwaggerUiOptions } from '@fastify/swagger-ui';
import { PRODUCT_NAME } from './openapi.ts';
import { DEFAULT_HTML_CSP } from './plugins/security-headers.ts';

/**
 * The one inline style the explorer applies: Swagger UI's stock logo (an SVG with a `<style>`,
 * drawn before swagger-initializer.js swaps in ours). Allowed by its hash, nothing else inline.
 */
const STOCK_LOGO_STYLE = '.logo_small_svg__cls-2{fill:#fff}.logo_small_svg__cls-3{fill:#85ea2d}';
const STOCK_LOGO_STYLE_HASH = `'sha256-${createHash('sha256').update(STOCK_LOGO_STYLE).digest('base64')}'`;

/**
 * The explorer's CSP: the origin's default for HTML (its own scripts and styles from
 * /docs/static, which @fastify/swagger-ui serves itself, no CDN; `data:` images for the logo; its
 * fetches of /docs/json and of "Try it out" to this origin; never framed), plus the logo's style.
 */
export const DOCS_CSP = DEFAULT_HTML_CSP.replace("style-src 'self'", `style-src 'self' ${STOCK_LOGO_STYLE_HASH}`);

/** A calendar mark, shared by the top bar's wordmark and the favicon. */
const MARK =
  '<rect x="2" y="5" width="28" height="25" rx="4" fill="#2f80ed"/><rect x="2" y="5" width="28" height="7" rx="3" fill="#1c5fbf"/>' +
  '<rect x="8" y="2" width="3" height="7" rx="1.5" fill="#e8f1fd"/><rect x="21" y="2" width="3" height="7" rx="1.5" fill="#e8f1fd"/>' +
  '<path d="M9 21l4.5 4.5L23 16" stroke="#fff" stroke-width="3" fill="none" stroke-linecap="round" stroke-linejoin="round"/>';

const WORDMARK = `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="32" viewBox="0 0 300 32">${MARK}<text x="40" y="23" font-family="system-ui, -apple-system, 'Segoe UI', sans-serif" font-size="18" font-weight="600" fill="#ffffff">${PRODUCT_NAME}</text></svg>`;

const FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32" viewBox="0 0 32 32">${MARK}</svg>`;

/**
 * The API explorer at /docs: the product's name as the page title and in the top bar instead of
 * the stock Swagger UI title and logo; the introduction is the document's info.description.
 */
export const docsUiOptions: FastifySwaggerUiOptions = {
  routePrefix: '/docs',
  uiConfig: { docExpansion: 'list', deepLinking: true },
  // On every route of the explorer (its page, the document, its scripts), set before the handler
  // runs; the explorer's static files (oauth2-redirect.html) get the default of security-headers.ts.
  uiHooks: {
    onRequest: (_request, reply, done) => {
      void reply.header('content-security-policy', DOCS_CSP).header('x-frame-options', 'DENY');
      done();
    },
  },
  logo: { type: 'image/svg+xml', content: Buffer.from(WORDMARK), href: '/docs', target: '_self' },
  theme: {
    title: `${PRODUCT_NAME} – reference`,
    favicon: [{ filename: 'favicon.svg', rel: 'icon', sizes: 'any', type: 'image/svg+xml', content: Buffer.from(FAVICON) }],
  },
};

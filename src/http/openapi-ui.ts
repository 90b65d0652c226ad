import type { FastifySwaggerUiOptions } from '@fastify/swagger-ui';
import { PRODUCT_NAME } from './openapi.ts';

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
  logo: { type: 'image/svg+xml', content: Buffer.from(WORDMARK), href: '/docs', target: '_self' },
  theme: {
    title: `${PRODUCT_NAME} – reference`,
    favicon: [{ filename: 'favicon.svg', rel: 'icon', sizes: 'any', type: 'image/svg+xml', content: Buffer.from(FAVICON) }],
  },
};

import { Type } from 'typebox';
import { paymentPage } from '../../use-cases/bookings/deposit.ts';
import type { App } from '../context.ts';
import { PAY_PAGE_HEADERS, renderDepositPage, renderNotFoundPage } from '../deposit-page.ts';

/**
 * GET /pay/deposit/:bookingId/:token: the page a deposit booking's payment link opens (the link
 * SignedLinkDepositProvider signs). Open to anyone holding the link; a link this server did not
 * sign, or one of a booking without a deposit, is an HTML 404 page. Not an API operation: left
 * out of the OpenAPI document (decisions.md "The deposit payment page").
 */
export async function payRoutes(app: App): Promise<void> {
  app.get(
    '/pay/deposit/:bookingId/:token',
    {
      config: { access: { surface: 'open' } },
      schema: {
        hide: true,
        params: Type.Object({ bookingId: Type.String(), token: Type.String() }),
      },
    },
    async (request, reply) => {
      const page = await paymentPage(app.ctx.db, app.ctx.serverSecret, request.params.bookingId, request.params.token);
      void reply.headers(PAY_PAGE_HEADERS);
      if (!page) return reply.status(404).send(renderNotFoundPage());
      return reply.status(200).send(renderDepositPage(page));
    },
  );
}

import type { FastifyInstance, FastifyReply } from 'fastify';
import type { SandboxContext } from '../app.ts';
import { escapeHtml, page } from '../http/html.ts';
import { ApiError } from '../http/replies.ts';
import { formatAmount } from '../../shared/money.ts';
import { parseMerchantQr } from '../../shared/emv-qr.ts';
import type { OrderRecord } from '../state.ts';

/**
 * The payer page (issue 2): a person plays the customer. GET /pay/{order id or QR id}, or GET /pay?qr=<payload> with
 * the scanned EMVCo text; Approve / Reject post back and go through the same path as POST /sandbox/orders/{id}/pay.
 */
export function registerPayerPage(app: FastifyInstance, ctx: SandboxContext): void {
  const show = (reply: FastifyReply, order: OrderRecord | undefined, notice = ''): FastifyReply => {
    reply.type('text/html; charset=utf-8');
    if (!order) return reply.code(404).send(page('Order not found', '<h1>Order not found</h1><p class="muted">This QR does not belong to any order.</p>'));
    ctx.orders.advance(order);
    const seller = ctx.state.sellers.get(order.user_id);
    const amount = `${order.currency} ${formatAmount(order.total, order.currency)}`;
    const actions =
      order.status === 'created'
        ? `<form method="post" action="/pay/${order.id}/approve"><button class="approve" type="submit">Approve</button></form>
           <form method="post" action="/pay/${order.id}/reject"><button class="reject" type="submit">Reject</button></form>`
        : `<p>Status: <strong data-status="${order.status}">${escapeHtml(order.status)}</strong></p>`;
    return reply.code(200).send(
      page(
        `Pay ${seller?.name ?? ''}`,
        `<span class="badge">Sandbox — no real money moves</span>
         <h1>${escapeHtml(seller?.name ?? 'Merchant')}</h1>
         <p class="muted">${escapeHtml(order.description ?? order.external_reference)}</p>
         <div class="amount" data-testid="payer-amount">${escapeHtml(amount)}</div>
         ${notice}${actions}`,
      ),
    );
  };

  app.get('/pay', async (request, reply) => {
    const { qr } = request.query as { qr?: string };
    if (!qr) return show(reply, undefined);
    const parsed = parseMerchantQr(qr);
    if (!parsed.ok) {
      reply.type('text/html; charset=utf-8');
      return reply.code(400).send(page('Invalid QR', `<h1>Invalid QR</h1><p class="muted">${escapeHtml(parsed.reason)}</p>`));
    }
    return show(reply, ctx.orders.findForPayer(parsed.qr.reference ?? parsed.qr.qrId) ?? ctx.orders.findForPayer(parsed.qr.qrId));
  });

  app.get('/pay/:id', async (request, reply) => {
    const { id } = request.params as { id: string };
    return show(reply, ctx.orders.findForPayer(id));
  });

  for (const outcome of ['approve', 'reject'] as const) {
    app.post(`/pay/:id/${outcome}`, async (request, reply) => {
      const { id } = request.params as { id: string };
      const order = ctx.orders.findForPayer(id);
      if (!order) return show(reply, undefined);
      try {
        ctx.state.transaction(() => ctx.orders.pay(order.id, { outcome: outcome === 'approve' ? 'approved' : 'rejected' }));
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        return show(reply, order, `<p class="muted">${escapeHtml(error.message)}</p>`);
      }
      await ctx.sweep();
      const notice = outcome === 'approve' ? '<p><strong>Payment approved.</strong></p>' : '<p><strong>Payment rejected.</strong> You can try again.</p>';
      return show(reply, order, notice);
    });
  }
}

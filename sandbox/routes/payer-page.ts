import type { FastifyInstance, FastifyReply } from 'fastify';
import type { SandboxContext } from '../context.ts';
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
    ctx.state.transaction(() => ctx.orders.advance(order));
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

  /**
   * An order id, a dynamic QR's id, or a point of sale's printed (static) QR id. seed 4.3: a static QR is tied to the
   * point of sale, so scanning it finds the order waiting there (static or hybrid mode; the newest if several wait).
   */
  const resolve = (idOrQr: string): OrderRecord | undefined => ctx.orders.findForPayer(idOrQr) ?? waitingAtPos(ctx, idOrQr);

  app.get('/pay', async (request, reply) => {
    const { qr } = request.query as { qr?: string };
    if (!qr) {
      reply.type('text/html; charset=utf-8');
      return reply.code(400).send(page('Scan a QR', '<h1>Scan a QR</h1><p class="muted">Open /pay?qr=&lt;scanned payload&gt; or /pay/&lt;order id&gt;.</p>'));
    }
    const parsed = parseMerchantQr(qr);
    if (!parsed.ok) {
      reply.type('text/html; charset=utf-8');
      return reply.code(400).send(page('Invalid QR', `<h1>Invalid QR</h1><p class="muted">${escapeHtml(parsed.reason)}</p>`));
    }
    // The reference label (tag 62-05) of a dynamic QR carries the order id; a static QR has only the QR id.
    return show(reply, (parsed.qr.reference ? ctx.orders.findForPayer(parsed.qr.reference) : undefined) ?? resolve(parsed.qr.qrId));
  });

  app.get('/pay/:id', async (request, reply) => {
    const { id } = request.params as { id: string };
    return show(reply, resolve(id));
  });

  for (const outcome of ['approve', 'reject'] as const) {
    app.post(`/pay/:id/${outcome}`, async (request, reply) => {
      const { id } = request.params as { id: string };
      const order = resolve(id);
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

/** The newest order still waiting (created, not expired) at the point of sale whose printed QR has this id. */
function waitingAtPos(ctx: SandboxContext, qrId: string): OrderRecord | undefined {
  let posId: string | undefined;
  let userId: string | undefined;
  for (const seller of ctx.state.sellers.values()) {
    const pos = seller.pos.find((p) => p.qr_id === qrId);
    if (pos) {
      posId = pos.external_pos_id;
      userId = seller.user_id;
      break;
    }
  }
  if (posId === undefined) return undefined;
  let newest: OrderRecord | undefined;
  for (const id of [...ctx.state.active]) {
    const order = ctx.state.orders.get(id);
    if (!order || order.user_id !== userId || order.pos_id !== posId || order.mode === 'dynamic') continue;
    ctx.state.transaction(() => ctx.orders.advance(order));
    if (order.status === 'created' && (!newest || order.created_at >= newest.created_at)) newest = order;
  }
  return newest;
}

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parseJson } from '../http/body.ts';
import type { SandboxContext } from '../context.ts';
import { escapeHtml, page } from '../http/html.ts';
import { ApiError } from '../domain/errors.ts';
import { formatAmount } from '../../shared/money.ts';
import { parseMerchantQr } from '../../shared/emv-qr.ts';
import type { OrderRecord, PosRecord } from '../state.ts';
import { consumeCardToken } from '../domain/tokenization.ts';
import { brandOf, outcomeOf } from '../domain/card-outcomes.ts';

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
           <form method="post" action="/pay/${order.id}/reject"><button class="reject" type="submit">Reject</button></form>
           <form method="post" action="/pay/${order.id}/wallet"><label for="card-token">Or pay with a wallet card: its card token</label>
           <input id="card-token" name="${WALLET_TOKEN_FIELD}" autocomplete="off" spellcheck="false" required>
           <button class="wallet" type="submit">Pay with wallet card</button></form>`
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

  /**
   * What a scan of `idOrQr` shows: its order, or, for a point of sale's printed code with no order waiting (none yet,
   * or the last one expired, was canceled or paid), the "nothing to pay yet" page in the payer's language.
   */
  const showScan = (request: FastifyRequest, reply: FastifyReply, idOrQr: string): FastifyReply => {
    const order = resolve(idOrQr);
    if (order) return show(reply, order);
    const pos = ctx.pos.findByQr(idOrQr);
    return pos ? showNothingToPay(request, reply, pos) : show(reply, undefined);
  };

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
    const byReference = parsed.qr.reference ? ctx.orders.findForPayer(parsed.qr.reference) : undefined;
    return byReference ? show(reply, byReference) : showScan(request, reply, parsed.qr.qrId);
  });

  app.get('/pay/:id', async (request, reply) => {
    const { id } = request.params as { id: string };
    return showScan(request, reply, id);
  });

  /**
   * The wallet option (issue 16; seed 2.1: a card token "is later sent as payment_method.token"): the form posts the
   * card token from wallet tokenization as `payment_method.token` (or a JSON body {"payment_method":{"token"}}). The
   * token is checked and spent as /v1/payments does (single use, the order's seller's, 7 days), and its cardholder
   * name decides the outcome (platform-facts "Sandbox outcome codes"): approved pays the order as a credit card of the
   * BIN's brand, anything else is a rejected attempt (seed 3.1: the order stays created). An order that can no longer
   * be paid is said so before the token is touched, so a late scan does not waste the card.
   */
  app.post('/pay/:id/wallet', async (request, reply) => {
    const { id } = request.params as { id: string };
    const order = resolve(id);
    if (!order) return show(reply, undefined);
    const tokenId = walletToken(request);
    if (!tokenId) return show(reply, order, '<p class="muted">Enter the card token that wallet tokenization returned.</p>');
    let notice: string;
    try {
      notice = ctx.state.transaction(() => {
        ctx.orders.advance(order);
        if (order.status !== 'created') throw new ApiError('order_not_payable', [order.id], `Order ${order.id} is ${order.status}; only created orders can be paid.`);
        const card = consumeCardToken(ctx.state, ctx.clock, order.user_id, tokenId);
        const outcome = outcomeOf(card);
        const approved = outcome.status === 'approved';
        ctx.orders.pay(order.id, approved ? { outcome: 'approved', payment_method_type: 'credit_card', payment_method_id: brandOf(card.bin), installments: 1 } : { outcome: 'rejected' });
        return approved
          ? `<p><strong>Payment approved</strong> with the card ending ${escapeHtml(card.last_four)}.</p>`
          : `<p><strong>Card payment rejected</strong> (<span data-status-detail="${escapeHtml(outcome.status_detail)}">${escapeHtml(outcome.status_detail)}</span>). The card token is spent: tokenize the card again to retry.</p>`;
      });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return show(reply, order, `<p class="muted" data-error="${escapeHtml(error.code)}">${escapeHtml(error.message)}</p>`);
    }
    await ctx.sweep();
    return show(reply, order, notice);
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
  const pos = ctx.pos.findByQr(qrId);
  if (!pos) return undefined;
  const { external_id: posId, user_id: userId } = pos;
  let newest: OrderRecord | undefined;
  for (const id of [...ctx.state.active]) {
    const order = ctx.state.orders.get(id);
    if (!order || order.user_id !== userId || order.pos_id !== posId || order.mode === 'dynamic') continue;
    ctx.state.transaction(() => ctx.orders.advance(order));
    if (order.status === 'created' && (!newest || order.created_at >= newest.created_at)) newest = order;
  }
  return newest;
}

/** The form field of the wallet option, named for where the seed says a card token goes (seed 2.1, 2.3). */
const WALLET_TOKEN_FIELD = 'payment_method.token';

/** The card token of a wallet post: the urlencoded form field, or {"payment_method":{"token"}} in a JSON body. */
function walletToken(request: FastifyRequest): string | undefined {
  const text = typeof request.body === 'string' ? request.body : Buffer.isBuffer(request.body) ? request.body.toString('utf8') : '';
  if (/^application\/json\b/i.test(request.headers['content-type'] ?? '')) {
    const parsed = parseJson(text);
    const method = parsed.ok && typeof parsed.value === 'object' && parsed.value !== null ? (parsed.value as { payment_method?: { token?: unknown } }).payment_method : undefined;
    return typeof method?.token === 'string' && method.token.trim() !== '' ? method.token.trim() : undefined;
  }
  const token = new URLSearchParams(text).get(WALLET_TOKEN_FIELD)?.trim();
  return token ? token : undefined;
}

/** The payer page's languages (issue 16): the platform's countries speak Spanish or Portuguese; English otherwise. */
type PayerLanguage = 'es' | 'pt' | 'en';

const NOTHING_TO_PAY: Record<PayerLanguage, { title: string; body: (pos: string) => string }> = {
  es: {
    title: 'Todavía no hay nada para pagar',
    body: (pos) => `La caja ${pos} no tiene ningún cobro esperando. Pídale al cajero que ingrese el monto: esta página se actualiza sola.`,
  },
  pt: {
    title: 'Ainda não há nada para pagar',
    body: (pos) => `O ponto de venda ${pos} não tem nenhuma cobrança aguardando. Peça ao operador do caixa que digite o valor: esta página se atualiza sozinha.`,
  },
  en: {
    title: 'Nothing to pay yet',
    body: (pos) => `Point of sale ${pos} has no charge waiting. Ask the cashier to enter the amount: this page refreshes by itself.`,
  },
};

/** Seconds between refreshes of the "nothing to pay yet" page, so the charge appears once the cashier makes it. */
const NOTHING_TO_PAY_REFRESH_S = 3;

/** The first of the Accept-Language ranges (by q, then order) that the page speaks; English when none. */
export function payerLanguage(header: string | undefined): PayerLanguage {
  const ranges = (header ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { primary: tag.split('-')[0] ?? '', q: q === undefined ? 1 : Number(q), index };
    })
    .filter((r) => r.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  const found = ranges.find((r) => r.primary === 'es' || r.primary === 'pt' || r.primary === 'en');
  return (found?.primary as PayerLanguage | undefined) ?? 'en';
}

/**
 * A point of sale's printed code scanned while no order waits there: 404 (there is no order to show), but a page that
 * says so plainly and refreshes, since the customer often scans before the cashier has entered the amount.
 */
function showNothingToPay(request: FastifyRequest, reply: FastifyReply, pos: PosRecord): FastifyReply {
  const lang = payerLanguage(request.headers['accept-language']);
  const text = NOTHING_TO_PAY[lang];
  reply.type('text/html; charset=utf-8').header('content-language', lang).header('cache-control', 'no-store');
  return reply.code(404).send(
    page(text.title, `<span class="badge">Sandbox</span><h1 data-testid="nothing-to-pay">${escapeHtml(text.title)}</h1><p class="muted">${escapeHtml(text.body(pos.name))}</p>`, {
      lang,
      head: `<meta http-equiv="refresh" content="${NOTHING_TO_PAY_REFRESH_S}">`,
    }),
  );
}

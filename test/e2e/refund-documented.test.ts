// issue 26 "Refunds as documented", as a cashier meets it in the browser: a refund the platform refuses with a
// documented code (platform-facts "Error bodies", played by the sandbox's fault with its `code`) shows that code's own
// message; an authentication refusal puts "Refunds stopped: sign in again" on the status line; a Brazilian seller's
// refund dialog offers the whole payment only and says why. Real core, sandbox, relay and Chromium; no timing asserted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { e2eUnavailable, startKioskBrowser } from '../support/kiosk-browser.ts';
import { awayFromMidnight } from '../support/midnight.ts';
import { openOrder, paidOrder, press } from '../support/history-screen.ts';
import { asyncRefundsFetch } from '../support/async-refunds.ts';

const skip = e2eUnavailable() ?? false;
const WAIT = { timeout: 30_000 };
const PIN = '1234';

test('issue 26: a refund refused with 409 cannot_refund_order shows its own message, not "unknown error"; a 401 user_not_authorized stops refunds on the status line', { skip }, async () => {
  await awayFromMidnight(); // sells, then finds the sale in today's History
  const k = await startKioskBrowser({ viewport: { width: 1024, height: 768 } });
  try {
    assert.ok((await k.core.api.setPin({ newPin: PIN })).ok);
    const { id } = await paidOrder(k, '120.00');
    await openOrder(k, id);
    k.platform.sandbox.faults.add({ method: 'POST', path: `/v1/orders/${id}/refund`, kind: 'error_before', rate: 1, status: 409, code: 'cannot_refund_order' });
    await k.page.getByTestId('refund').click();
    await k.page.getByTestId('refund-next').click();
    await press(k.page.getByTestId('refund-pin'), PIN);
    await k.page.getByTestId('confirm-refund').click();
    const failed = k.page.locator('[data-testid="refund-result"][data-state="failed"]');
    await failed.waitFor(WAIT);
    assert.equal(
      (await failed.textContent())?.trim(),
      'La devolución fue rechazada: Esta venta no se puede devolver en su estado actual (solo las ventas pagadas).',
    );
    await k.screenshot('refund-documented-refused-es');
    await k.page.getByTestId('refund-close').click();

    // The platform now refuses the kiosk's credentials: the next refund waits and the status line says why.
    k.platform.sandbox.faults.clear();
    const second = await paidOrder(k, '80.00');
    k.platform.sandbox.faults.add({ method: 'POST', path: '/v1/orders/*/refund', kind: 'error_before', rate: 1, status: 401, code: 'user_not_authorized' });
    const queued = await k.core.api.refundOrder({ id: second.id, pin: PIN, requestId: 'e2e-auth-stop-1' });
    assert.ok(queued.ok && queued.value.state === 'queued', JSON.stringify(queued));
    const stopped = k.page.getByTestId('outbox-stopped');
    await stopped.waitFor(WAIT);
    assert.equal((await stopped.textContent())?.trim(), 'Devoluciones detenidas: vuelva a iniciar sesión (Ajustes).');
    await k.screenshot('refund-documented-stopped-es');
  } finally {
    k.platform.sandbox.faults.clear();
    await k.close();
  }
});

test('issue 26: a Brazilian seller\'s refund dialog offers the whole payment only and says why', { skip }, async () => {
  await awayFromMidnight();
  const k = await startKioskBrowser({ viewport: { width: 1024, height: 768 }, countryCode: 'BR' });
  try {
    assert.ok((await k.core.api.setPin({ newPin: PIN })).ok);
    const created = await k.core.api.createOrder({ amount: '30.00', items: [{ title: 'Pão de queijo', unitPrice: '10.00', quantity: 3, unitMeasure: 'unit' }] });
    assert.ok(created.ok);
    assert.ok((await k.core.api.simulatePayment({ id: created.value.id, outcome: 'approved' })).ok);
    await openOrder(k, created.value.id);
    await k.page.getByTestId('refund').click();
    await k.page.locator('[data-testid="refund-dialog"][data-step="choose"]').waitFor(WAIT);
    assert.equal(await k.page.getByTestId('refund-partial').count(), 0, 'no other amount');
    assert.equal(await k.page.getByTestId('refund-items-mode').count(), 0, 'no refund by items (a partial refund)');
    assert.equal(await k.page.getByTestId('refund-full').getAttribute('aria-pressed'), 'true');
    const why = ((await k.page.getByTestId('refund-no-partial').textContent()) ?? '').trim();
    const lang = String(await k.page.evaluate('document.documentElement.lang'));
    const WORDS: Record<string, string> = {
      pt: 'Só é possível reembolsar o pagamento inteiro: a plataforma não permite reembolsos parciais no Brasil.',
      es: 'Solo se puede devolver el pago completo: la plataforma no permite devoluciones parciales en Brasil.',
      en: 'Only the whole payment can be refunded: the platform does not allow partial refunds in Brazil.',
    };
    assert.equal(why, WORDS[lang.slice(0, 2)], `the reason in the kiosk's language (${lang})`);
    await k.screenshot('refund-documented-br');
    // The whole payment still goes back.
    await k.page.getByTestId('refund-next').click();
    await press(k.page.getByTestId('refund-pin'), PIN);
    await k.page.getByTestId('confirm-refund').click();
    await k.page.locator('[data-testid="refund-result"][data-state="done"]').waitFor(WAIT);
  } finally {
    await k.close();
  }
});

test('issue 26: a full refund answered asynchronously reads "Devolución en curso" in History and the sale until the platform says refunded', { skip }, async () => {
  await awayFromMidnight();
  const k = await startKioskBrowser({ viewport: { width: 1024, height: 768 }, fetch: asyncRefundsFetch });
  try {
    assert.ok((await k.core.api.setPin({ newPin: PIN })).ok);
    const { id } = await paidOrder(k, '60.00');
    await openOrder(k, id);
    await k.page.getByTestId('refund').click();
    await k.page.getByTestId('refund-next').click();
    await press(k.page.getByTestId('refund-pin'), PIN);
    await k.page.getByTestId('confirm-refund').click();
    await k.page.locator('[data-testid="refund-result"][data-state="done"]').waitFor(WAIT);
    await k.page.getByTestId('refund-close').click();
    const badge = k.page.locator('[data-testid="order-status"] [data-refunding="true"]');
    await badge.waitFor(WAIT);
    assert.equal((await badge.textContent())?.trim(), 'Devolución en curso');
    assert.equal(await k.page.getByTestId('order-status').getAttribute('data-status'), 'processed', 'the documented answer: still processed');
    await k.screenshot('refund-documented-in-progress');
    await k.page.getByTestId('back').click();
    const row = k.page.locator(`[data-testid="history-row"][data-order-id="${id}"] [data-refunding="true"]`);
    await row.waitFor(WAIT);
    assert.equal((await row.textContent())?.trim(), 'Devolución en curso');
    // The platform settles the refund: the kiosk's GETs (and the relay's order.refunded) bring "refunded".
    await k.platform.sandbox.advance(15);
    await k.page.locator(`[data-testid="history-row"][data-order-id="${id}"] [data-testid="row-status"][data-status="refunded"]`).waitFor(WAIT);
    assert.equal(await row.count(), 0, 'no longer in progress');
  } finally {
    await k.close();
  }
});

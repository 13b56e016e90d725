// issue 26 "An answer the kiosk cannot read never leaves money on the table", as the cashier meets it: the platform
// makes the order but its answer reaches the kiosk garbled (a rewriting proxy in front of the embedded sandbox). The
// Sale screen says so in words (es-AR here), the order is canceled at the platform, and History lists it. Real core,
// sandbox, relay, proxy, web shell and Chromium.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { e2eUnavailable, startKioskBrowser } from '../support/kiosk-browser.ts';
import { startRewritingProxy, type RewritingProxy } from '../support/rewriting-proxy.ts';

const skip = e2eUnavailable() ?? false;
const WAIT = { timeout: 20_000 };

test('issue 26: a charge whose answer cannot be read is explained on screen, canceled at the platform, and in History', { skip }, async () => {
  let proxy: RewritingProxy | null = null;
  const k = await startKioskBrowser({
    platformFront: async (url) => {
      proxy = await startRewritingProxy(url);
      return proxy;
    },
  });
  try {
    const garbling = proxy as unknown as RewritingProxy;
    garbling.rewrite = (a) => (a.method === 'POST' && a.path === '/v1/orders' && a.status < 300 ? a.text.slice(0, 80) : null);
    const page = k.page;
    await page.getByTestId('key-3').waitFor(WAIT);
    await page.getByTestId('key-3').click();
    await page.getByTestId('key-4').click();
    await page.getByTestId('charge').click();
    const problem = page.getByTestId('charge-problem');
    await problem.waitFor(WAIT);
    assert.equal(await problem.getAttribute('data-kind'), 'refused');
    assert.match((await problem.textContent()) ?? '', /No se pudo leer la respuesta de la plataforma a este cobro/);
    assert.equal(await page.getByTestId('charge-view').count(), 0, 'no QR for an order the kiosk could not read');
    const made = JSON.parse(garbling.seen.find((a) => a.method === 'POST' && a.path === '/v1/orders')!.text) as { id: string };
    const deadline = Date.now() + 20_000;
    while (k.platform.sandbox.state.orders.get(made.id)?.status !== 'canceled') {
      assert.ok(Date.now() < deadline, 'the platform order is canceled');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await page.getByTestId('history').click();
    await page.locator('[data-screen="History"]').waitFor(WAIT);
    await page.locator(`[data-testid="history-row"][data-order-id="${made.id}"]`).waitFor(WAIT);
    await k.screenshot('sale-unreadable-history');
  } finally {
    await k.close();
  }
});

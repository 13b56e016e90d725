// issue 6 "Receipts": the Electron shell prints the renderer's #/receipt/<id> route once the page says it is ready
// (electron/main/receipt-printer.ts RECEIPT_READY_PROBE). Electron cannot run here, but its probe is plain page script:
// this runs it in Chromium against the real renderer, core, sandbox and relay (through the web shell), so the two
// sides cannot drift apart unnoticed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { RECEIPT_READY_PROBE } from '../../electron/main/receipt-printer.ts';
import { e2eUnavailable, startKioskBrowser } from '../support/kiosk-browser.ts';

const skip = e2eUnavailable() ?? false;

/** What the shell's printer would see, once the page stops answering 'waiting' (bounded wait). */
async function probe(page: Page): Promise<unknown> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const state = await page.evaluate(RECEIPT_READY_PROBE);
    if (state !== 'waiting') return state;
    await page.waitForTimeout(100);
  }
  return 'waiting';
}

test('issue 6: the receipt route signals "ready" with the receipt\'s length, which the silent print uses as the page size', { skip }, async () => {
  const k = await startKioskBrowser();
  try {
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const session = await k.core.api.getSession({});
      if (session.ok && session.value.state === 'connected') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const created = await k.core.api.createOrder({ amount: '150' });
    assert.ok(created.ok, JSON.stringify(created));
    const paid = await k.core.api.simulatePayment({ id: created.value.id, outcome: 'approved' });
    assert.ok(paid.ok, JSON.stringify(paid));

    await k.page.getByTestId('training-badge').waitFor({ timeout: 20_000 });
    await k.page.evaluate((id) => {
      (globalThis as unknown as { location: { hash: string } }).location.hash = `#/receipt/${id}`;
    }, created.value.id);
    const length = await probe(k.page);
    assert.equal(typeof length, 'number', `the probe answers a length, not ${JSON.stringify(length)}`);
    assert.ok((length as number) > 20 && (length as number) < 2000, `a receipt-sized page: ${String(length)} mm`);
    assert.match((await k.page.getByTestId('receipt').textContent()) ?? '', new RegExp(created.value.id), 'the receipt of that order is on the page');

    await k.page.evaluate(() => {
      (globalThis as unknown as { location: { hash: string } }).location.hash = `#/receipt/ORDTST${'Z'.repeat(23)}`;
    });
    assert.equal(await probe(k.page), 'error', 'an unknown order is reported, so nothing is printed');
  } finally {
    await k.close();
  }
});

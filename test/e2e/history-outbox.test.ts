// issue 5 "History" / "Offline" and kiosk-expectations "Lost or double refund": a refund the platform refuses shows as
// failed with its reason in words; a manager retries or drops it behind the PIN, in a dialog that keeps focus inside
// and gives it back; a retried refund reaches the platform exactly once. Real core, sandbox, relay and Chromium.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { awayFromMidnight } from '../support/midnight.ts';
import { e2eUnavailable, REVIEW_SIZES, SCREENSHOT_DIR, startKioskBrowser, type KioskBrowser } from '../support/kiosk-browser.ts';
import { paidOrder, press } from '../support/history-screen.ts';
import { assertNoHorizontalOverflow } from '../support/settings-screen.ts';

// The functions given to page.evaluate run in the page, but this project typechecks without DOM types (shared/ must
// not see them): the browser globals those functions use are declared here, for this file only.
interface PageElement {
  readonly tagName: string;
  getAttribute(name: string): string | null;
  closest(selector: string): PageElement | null;
  querySelectorAll(selector: string): ArrayLike<PageElement> & Iterable<PageElement>;
}
interface PageBox { top: number; bottom: number; right: number }
interface PageRange {
  selectNodeContents(node: unknown): void;
  setStart(node: unknown, offset: number): void;
  setEnd(node: unknown, offset: number): void;
  getClientRects(): ArrayLike<PageBox> & Iterable<PageBox>;
  getBoundingClientRect(): PageBox;
}
declare const document: { activeElement: PageElement | null; querySelector(selector: string): PageElement | null; createRange(): PageRange };

const skip = e2eUnavailable() ?? false;
const WAIT = { timeout: 20_000 };

const sandboxRefunds = (k: KioskBrowser, id: string): number => k.platform.sandbox.state.orders.get(id)?.refunds.length ?? -1;

/** A full refund the platform refuses for good (an injected 400): the dialog says why; the item stays, failed. */
async function refusedRefund(k: KioskBrowser): Promise<{ id: string; ref: string }> {
  assert.ok((await k.core.api.setPin({ newPin: '1234' })).ok);
  const order = await paidOrder(k, '80.00');
  await k.page.getByTestId('history').click();
  await k.page.locator(`[data-testid="history-row"][data-order-id="${order.id}"]`).click();
  await k.page.getByTestId('order-detail').waitFor(WAIT);
  k.platform.sandbox.faults.add({ method: 'POST', path: '/v1/orders/*/refund', kind: 'error_before', rate: 1, status: 400 });
  await k.page.getByTestId('refund').click();
  await k.page.getByTestId('refund-next').click();
  await press(k.page.getByTestId('refund-pin'), '1234');
  await k.page.getByTestId('confirm-refund').click();
  await k.page.locator('[data-testid="refund-result"][data-state="failed"]').waitFor(WAIT);
  assert.match((await k.page.getByTestId('refund-result').textContent()) ?? '', /rechazada: La plataforma rechazó el pedido/);
  await k.page.getByTestId('refund-close').click();
  return order;
}

test('issue 5: a refused refund reads "failed" with its reason; a wrong PIN sends nothing; the manager retry sends it once', { skip }, async () => {
  await awayFromMidnight(); // issue 14: sells, then reads "today"
  const k = await startKioskBrowser();
  try {
    const order = await refusedRefund(k);
    const item = k.page.locator('[data-testid="outbox-item"]');
    await item.first().waitFor(WAIT);
    assert.equal(await item.getAttribute('data-state'), 'failed');
    assert.equal(await item.getByTestId('outbox-state').textContent(), 'Fallida');
    assert.match((await item.getByTestId('outbox-reason').textContent()) ?? '', /^Requiere un encargado: La plataforma rechazó el pedido/);
    assert.equal(await k.page.getByTestId('refund').count(), 1, 'a refused refund leaves the sale refundable');

    await k.page.getByTestId('back').click();
    const listed = k.page.locator(`[data-testid="outbox-list"] [data-testid="outbox-item"][data-state="failed"]`);
    await listed.waitFor(WAIT);
    assert.match((await listed.textContent()) ?? '', new RegExp(order.ref));
    // The sale's row in the list says the same as the column: refused, not merely waiting in the queue.
    const row = k.page.locator(`[data-testid="history-row"]:has-text("${order.ref}")`);
    assert.equal(await row.getByTestId('row-refused').textContent(), 'Requiere un encargado', 'the row says what the column says: refused, a manager must act');
    assert.equal(await row.getByTestId('row-pending').count(), 0, 'nothing of it is merely waiting');
    // The banner tells refused work (a manager must act) apart from work that is only waiting, its verb agreeing with
    // the count (issue 15 "Wording": "1 requieren" was the bug).
    assert.match((await k.page.getByTestId('outbox-failed').textContent()) ?? '', /^1 requiere un encargado/);
    assert.equal(await k.page.getByTestId('outbox-count').count(), 0, 'nothing is merely queued');
    await k.screenshot('history-outbox-failed');

    await listed.getByTestId('outbox-retry').click();
    const dialog = k.page.locator('[data-testid="outbox-dialog"][open]');
    await dialog.waitFor(WAIT);
    assert.equal(await k.page.getByTestId('outbox-confirm').isDisabled(), true, 'no retry without the PIN');
    await press(dialog, '9999');
    await k.page.getByTestId('outbox-confirm').click();
    await k.page.getByTestId('outbox-error').waitFor(WAIT);
    assert.equal(await k.page.getByTestId('outbox-error').textContent(), 'PIN incorrecto.');
    assert.equal(sandboxRefunds(k, order.id), 0, 'a wrong PIN sent nothing');

    k.platform.sandbox.faults.clear();
    await press(dialog, '1234');
    await k.page.getByTestId('outbox-confirm').click();
    const done = k.page.locator(`[data-testid="outbox-list"] [data-testid="outbox-item"][data-state="done"]`);
    await done.waitFor(WAIT);
    assert.equal(await done.getByTestId('outbox-state').textContent(), 'Enviada');
    assert.equal(await done.getByTestId('outbox-retry').count(), 0, 'a sent item has nothing left to retry');
    assert.equal(sandboxRefunds(k, order.id), 1, 'the platform holds exactly one refund');
    await k.screenshot('history-outbox-done');
  } finally {
    k.platform.sandbox.faults.clear();
    await k.close();
  }
});

test('issue 5: the retry/drop PIN dialog keeps focus inside, closes on Escape, gives focus back; Drop gives the refund up', { skip }, async () => {
  await awayFromMidnight(); // issue 14: sells, then reads "today"
  const k = await startKioskBrowser();
  try {
    const order = await refusedRefund(k);
    await k.page.getByTestId('back').click();
    const listed = k.page.locator(`[data-testid="outbox-list"] [data-testid="outbox-item"][data-state="failed"]`);
    await listed.waitFor(WAIT);

    const drop = listed.getByTestId('outbox-drop');
    await drop.focus();
    await k.page.keyboard.press('Enter');
    await k.page.locator('[data-testid="outbox-dialog"][open]').waitFor(WAIT);
    const inside = () => k.page.evaluate(() => document.activeElement?.closest('[data-testid="outbox-dialog"]') !== null);
    const focused = () => k.page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName ?? '');
    assert.equal(await inside(), true, 'opening moves focus into the dialog');
    const first = await focused();
    const count = await k.page.evaluate(() => {
      const root = document.querySelector('[data-testid="outbox-dialog"]');
      return root ? [...root.querySelectorAll('button:not([disabled]), input:not([disabled])')].length : 0;
    });
    assert.ok(count >= 12, 'the PIN pad, its field and the buttons are in the dialog');
    for (let i = 0; i < count; i += 1) {
      await k.page.keyboard.press('Tab');
      assert.equal(await inside(), true, `Tab ${i + 1} stays inside`);
    }
    assert.equal(await focused(), first, 'Tab wraps round to the first control');
    await k.page.keyboard.press('Shift+Tab');
    assert.equal(await focused(), 'outbox-dialog-dismiss', 'Shift+Tab from the first control goes to the last enabled one');
    await k.page.keyboard.press('Escape');
    await k.page.locator('[data-testid="outbox-dialog"][open]').waitFor({ state: 'detached', ...WAIT });
    assert.equal(await focused(), 'outbox-drop', 'focus is back on Drop');

    await k.page.keyboard.press('Enter');
    const dialog = k.page.locator('[data-testid="outbox-dialog"][open]');
    await dialog.waitFor(WAIT);
    await press(dialog, '1234');
    await k.page.getByTestId('outbox-confirm').click();
    await listed.waitFor({ state: 'detached', ...WAIT });
    assert.equal(sandboxRefunds(k, order.id), 0, 'a dropped refund never reaches the platform');
    const outbox = await k.core.api.listOutbox({});
    assert.ok(outbox.ok);
    assert.equal(outbox.value.filter((i) => i.state === 'queued' || i.state === 'failed').length, 0, 'nothing waits any more');
  } finally {
    k.platform.sandbox.faults.clear();
    await k.close();
  }
});

/**
 * The cards as a cashier reads them from 60 cm, one line per card: lines of the title, of its amount and of the sale's
 * reference (null when the card has none), whether the state badge sits under the title, and whether anything spills
 * out of the card sideways.
 */
const cardLayout = (k: KioskBrowser) =>
  k.page.locator('[data-testid="outbox-list"] [data-testid="outbox-item"]').evaluateAll((cards) =>
    cards.map((card) => {
      const title = card.querySelector('[data-testid="outbox-what"]');
      const badge = card.querySelector('[data-testid="outbox-state"]');
      // The lines a node's text takes: its text boxes' distinct tops (a box within 4 px of the one before is the same
      // line). No named helper: the page cannot see the name wrapper tsx puts around one.
      const [titleLines, amountLines, refLines] = ['outbox-what', 'outbox-amount', 'outbox-ref'].map((testid) => {
        const node = card.querySelector(`[data-testid="${testid}"]`);
        if (!node) return null;
        const range = document.createRange();
        range.selectNodeContents(node);
        const tops = [...range.getClientRects()].map((box) => box.top).sort((a, b) => a - b);
        return tops.filter((top, i) => i === 0 || top - (tops[i - 1] ?? top) > 4).length;
      });
      // The separator after the reference ("… -003 ·"): on the reference's last line, never starting the next.
      const ref = card.querySelector('[data-testid="outbox-ref"]');
      const after = ref?.nextSibling;
      let dotAfterRef: boolean | null = null;
      if (ref && after && (after.textContent ?? '').trimStart().startsWith('·')) {
        const dot = document.createRange();
        dot.setStart(after, 0);
        dot.setEnd(after, 2);
        dotAfterRef = Math.abs(dot.getBoundingClientRect().bottom - ref.getBoundingClientRect().bottom) < 4;
      }
      return {
        text: (card.querySelector('[data-testid="outbox-sale"]')?.textContent ?? '').trim(),
        dotAfterRef,
        title: titleLines,
        amount: amountLines,
        ref: refLines,
        badgeUnder: !!title && !!badge && badge.getBoundingClientRect().top >= title.getBoundingClientRect().bottom - 1,
        spills: card.scrollWidth > card.clientWidth,
      };
    }),
  );

/**
 * The History list's bare-amount rows: each reference's text, its line boxes (the client rects of a Range over it: a
 * reference broken inside has two), and whether it is whole: as wide as its text (no ellipsis) and ending before the
 * row's amount.
 */
const bareRefLayout = (k: KioskBrowser) =>
  k.page.locator('[data-testid="history-row"]').evaluateAll((rows) =>
    rows.map((row) => {
      const ref = row.querySelector('[data-testid="row-bare-ref"]');
      const amount = row.querySelector('.amount');
      if (!ref || !amount) return { text: null, lines: 0, whole: false };
      const range = document.createRange();
      range.selectNodeContents(ref);
      const text = range.getBoundingClientRect();
      return {
        text: (ref.textContent ?? '').trim(),
        lines: range.getClientRects().length,
        whole: ref.scrollWidth <= ref.clientWidth && text.right <= amount.getBoundingClientRect().left,
      };
    }),
  );
/**
 * A refund asked through the API while the platform answers every refund with `status` (an injected fault, left in
 * place: a 503 keeps the refund queued, a 400 has it refused for good); the kiosk records it either way.
 */
async function refundWhilePlatformAnswers(k: KioskBrowser, status: 400 | 503, refund: { id: string; amount?: string; requestId: string }): Promise<void> {
  k.platform.sandbox.faults.clear();
  k.platform.sandbox.faults.add({ method: 'POST', path: '/v1/orders/*/refund', kind: 'error_before', rate: 1, status });
  assert.ok((await k.core.api.refundOrder({ ...refund, pin: '1234' })).ok);
}

// issue 14 follow-up: at 1024x768 the column is about 290 px wide; a queued refund's card read "Devolución de" / "$ 40,00"
// beside its badge and "Venta CAJA-1-20261125033320-" / "003": a reference split at a hyphen reads as two sales.
test('issue 14: each outbox card reads whole in every language and review size: title and amount on one line, the state under it, the reference never broken', { skip }, async () => {
  await awayFromMidnight(); // issue 14: sells, then reads "today"
  const k = await startKioskBrowser({ viewport: { width: 1024, height: 768 } });
  try {
    assert.ok((await k.core.api.setPin({ newPin: '1234' })).ok);
    const refused = await paidOrder(k, '80.00');
    const waiting = await paidOrder(k, '150.00');
    await refundWhilePlatformAnswers(k, 400, { id: refused.id, requestId: 'outbox-layout-refused' });
    await refundWhilePlatformAnswers(k, 503, { id: waiting.id, amount: '40.00', requestId: 'outbox-layout-waiting' });

    for (const language of ['es-AR', 'pt-BR', 'en'] as const) {
      assert.ok((await k.core.api.updateSettings({ pin: '1234', patch: { language } })).ok);
      await k.page.setViewportSize({ width: 1024, height: 768 });
      await k.page.reload();
      await k.page.getByTestId('history').click();
      await k.page.locator('[data-testid="outbox-list"] [data-testid="outbox-item"]').nth(1).waitFor(WAIT);
      await k.page.locator('[data-testid="outbox-list"] [data-testid="outbox-amount"]:not(:empty)').waitFor(WAIT);
      // A sale the page has fetched whole gives its card the long line, "Sale <reference> · <total> · <time>": its
      // detail's "check status" fetches it.
      for (const order of [refused, waiting]) {
        await k.page.locator(`[data-testid="history-row"][data-order-id="${order.id}"]`).click();
        await k.page.getByTestId('check-order').click();
        await k.page.locator('[data-testid="check-order"]:not([disabled])').waitFor(WAIT);
        await k.page.getByTestId('back').click();
      }
      await k.page.locator('[data-testid="outbox-list"] [data-testid="outbox-sale"]:has-text("·")').nth(1).waitFor(WAIT);
      for (const size of REVIEW_SIZES) {
        await k.page.setViewportSize(size);
        const at = `${language} ${size.width}x${size.height}`;
        const cards = await cardLayout(k);
        assert.equal(cards.length, 2, `two cards at ${at}`);
        assert.deepEqual(cards.map((card) => card.ref), [1, 1], `each reference is one line at ${at}: ${cards.map((card) => card.text).join(' | ')}`);
        assert.deepEqual(cards.map((card) => card.amount), [0, 1], `the full refund has no amount, the partial refund's is whole at ${at}`);
        assert.deepEqual(cards.map((card) => card.title), [1, 1], `each title is one line at ${at}`);
        assert.deepEqual(cards.map((card) => card.dotAfterRef), [true, true], `the "·" after each reference ends its line at ${at}`);
        assert.deepEqual(cards.map((card) => card.badgeUnder), [true, true], `the state badge is under the title at ${at}`);
        assert.deepEqual(cards.map((card) => card.spills), [false, false], `nothing spills out of a card at ${at}`);
        assert.match(cards.map((card) => card.text).join(' | '), new RegExp(`${refused.ref}.*${waiting.ref}`), `the sales by their references at ${at}`);
        // The list's rows too: a bare amount's reference is its row's main line, whole on one line (it broke at a
        // hyphen at 1024 in en) and never cut (no ellipsis: its text ends before the row's amount begins).
        const rows = await bareRefLayout(k);
        assert.deepEqual(rows.map((row) => row.text).sort(), [refused.ref, waiting.ref].sort(), `both rows show their bare reference at ${at}`);
        assert.deepEqual(rows.map((row) => row.lines), [1, 1], `each row's reference is one line at ${at}`);
        assert.deepEqual(rows.map((row) => row.whole), [true, true], `each row's reference is whole, not cut, at ${at}`);
        await assertNoHorizontalOverflow(k.page);
        await k.page.screenshot({ path: join(SCREENSHOT_DIR, `history-outbox-${language}-${size.width}x${size.height}.png`), fullPage: true });
      }
    }
  } finally {
    k.platform.sandbox.faults.clear();
    await k.close();
  }
});

test('issue 14: a sale with a refused refund and a queued one says both in its row: the amount pending and Needs a manager', { skip }, async () => {
  await awayFromMidnight(); // issue 14: sells, then reads "today"
  const k = await startKioskBrowser({ viewport: { width: 1024, height: 768 } });
  try {
    assert.ok((await k.core.api.setPin({ newPin: '1234' })).ok);
    const sale = await paidOrder(k, '150.00');
    await refundWhilePlatformAnswers(k, 400, { id: sale.id, amount: '40.00', requestId: 'row-both-refused' });
    await refundWhilePlatformAnswers(k, 503, { id: sale.id, amount: '30.00', requestId: 'row-both-queued' });
    await k.page.reload();
    await k.page.getByTestId('history').click();
    const row = k.page.locator(`[data-testid="history-row"][data-order-id="${sale.id}"]`);
    await row.getByTestId('row-refused').waitFor(WAIT);
    assert.equal(await row.getByTestId('row-refused').textContent(), 'Requiere un encargado', 'the refused refund: a manager must act');
    // The renderer's money has a non-breaking space after the sign: read as a space.
    assert.equal((await row.getByTestId('row-pending').textContent())?.replace(/\s/g, ' '), '$ 30,00 pendiente', 'the queued one: only its own amount');
    await k.screenshot('history-row-refused-and-pending');
  } finally {
    k.platform.sandbox.faults.clear();
    await k.close();
  }
});

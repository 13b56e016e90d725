import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';

/**
 * Every figure of the Z report on screen lies inside its row or tile, whole (issue 17 review: "ARS 1.254,50" ran past
 * the Net card at 1024 px). A page-wide overflow check misses an amount that spills inside a wider card.
 */
export async function assertFiguresFit(page: Page): Promise<void> {
  const spills = await page.locator('[data-testid="report"] dd').evaluateAll((figures) =>
    figures.flatMap((dd) => {
      const box = dd.getBoundingClientRect();
      const row = dd.parentElement!.getBoundingClientRect();
      const fits = dd.scrollWidth <= dd.clientWidth + 1 && box.left >= row.left - 1 && box.right <= row.right + 1;
      return fits ? [] : [`${dd.textContent} (${Math.round(box.left)}–${Math.round(box.right)} in ${Math.round(row.left)}–${Math.round(row.right)})`];
    }),
  );
  assert.deepEqual(spills, [], 'figures that run past their row');
}

/** Sets a DayPicker's day through its hidden date input, `days` from the day it shows (the system picker's answer). */
export async function moveDayInput(page: Page, testid: string, days: number): Promise<void> {
  await page.getByTestId(`${testid}-day-input`).evaluate((input, by) => {
    const date = input as { valueAsNumber: number };
    date.valueAsNumber += by * 86_400_000;
    input.dispatchEvent(new Event('change', { bubbles: true }));
  }, days);
}

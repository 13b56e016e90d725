/**
 * issue 14 "cold start": a User Timing mark (`performance.mark`) once the frame that first shows something has been
 * painted (its animation callback, then a task), once per page. bench/renderer.bench.ts reads the Sale keypad's
 * (`kiosk:keypad-drawn`) to say how long the page itself took, apart from the browser's and the test driver's time;
 * DevTools' performance panel shows it too.
 */
export function markFirstDrawn(name: string): void {
  if (performance.getEntriesByName(name).length > 0) return;
  requestAnimationFrame(() =>
    setTimeout(() => {
      if (performance.getEntriesByName(name).length === 0) performance.mark(name);
    }, 0),
  );
}

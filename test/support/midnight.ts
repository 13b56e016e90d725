// Issue 14 (test hygiene): "today" is a local calendar day. History's "Hoy", the Reports day and the Z report take local
// midnight to midnight in the browser's time zone (renderer/src/screens/History.svelte and Reports.svelte), and the
// browser is Chromium started from this process, so it has this process's zone (TZ, else the system's); the orders are
// stamped by the core's real clock. A test that sells and then reads "today" would fail if a local midnight fell between
// the sale and the read: this guard moves such a test past a midnight that is near, so it runs within one day.
import { abortableSleep } from '../../node-common/sleep.ts';

/** Milliseconds from `now` to the next local midnight (by the calendar, so a day that changes DST has its real length). */
export function msToNextMidnight(now = new Date()): number {
  return new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1).getTime() - now.getTime();
}

/**
 * Call at the start of a test that sells and then reads "today": when fewer than `marginMs` remain before the next local
 * midnight, waits until a second after it and says so on stderr (the test log; TEST_VERBOSE=1 shows it). The default
 * margin covers a browser test of a minute; the wait (at most margin + 1 s) stays well inside the runner's 180 s per test.
 */
export async function awayFromMidnight(marginMs = 60_000): Promise<void> {
  const left = msToNextMidnight();
  if (left >= marginMs) return;
  process.stderr.write(`awayFromMidnight: ${Math.ceil(left / 1000)} s to local midnight; waiting until just after it so the test's "today" stays one day\n`);
  await abortableSleep(left + 1000);
}

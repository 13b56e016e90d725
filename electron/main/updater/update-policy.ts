import { MAINTENANCE_WINDOW_PATTERN } from '../../../shared/kiosk-api.ts';

/**
 * When an update may be installed (issue 18 "Updates"): pure decisions, no I/O, so a table of cases pins them down.
 * An installed kiosk must never be quit in the middle of a sale: the update waits until the counter is idle (no charge
 * waiting, no refund sending, an outbox empty or holding only failed items) AND either the store's maintenance window
 * is open or a manager tapped "update now".
 */

/** How often the feed is asked for a newer version (issue 18: "on start and every few hours"). */
export const CHECK_EVERY_MS = 4 * 60 * 60 * 1000;
/** A failed or corrupt download is tried again this much later, never installed (issue 18). */
export const RETRY_AFTER_FAILURE_MS = 30 * 60 * 1000;
/** How often a downloaded update looks again whether the counter is idle and the window open. */
export const INSTALL_POLL_MS = 60 * 1000;
/** The store's window when the manager set none (issue 18: "e.g. 03:00–05:00"). */
export const DEFAULT_MAINTENANCE_WINDOW = '03:00-05:00';

/** Minutes after local midnight; `end` before `start` crosses midnight (22:00-02:00). */
export interface MaintenanceWindow {
  start: number;
  end: number;
}

/** "HH:MM-HH:MM" in the counter PC's local time, or null when it is not one (or starts and ends at the same minute). */
export function parseMaintenanceWindow(text: string): MaintenanceWindow | null {
  const match = MAINTENANCE_WINDOW_PATTERN.exec(text);
  if (!match) return null;
  const [, sh, sm, eh, em] = match.map(Number) as [number, number, number, number, number];
  const window = { start: sh * 60 + sm, end: eh * 60 + em };
  return window.start === window.end ? null : window;
}

/** Whether `minuteOfDay` (local) is inside the window: the start minute is in, the end minute is out. */
export function inMaintenanceWindow(window: MaintenanceWindow, minuteOfDay: number): boolean {
  return window.start < window.end ? minuteOfDay >= window.start && minuteOfDay < window.end : minuteOfDay >= window.start || minuteOfDay < window.end;
}

/** What the counter is doing, as far as an update cares. */
export interface CounterActivity {
  /** A charge is on screen, waiting for the customer to pay. */
  chargeWaiting: boolean;
  /** A refund or cancel is being sent to the platform right now. */
  refundSending: boolean;
  /** Outbox items still to be sent (queued, or waiting to be retried); failed items do not count. */
  outboxWaiting: number;
}

export type InstallDecision =
  | { install: true; because: 'window' | 'manager' }
  | { install: false; because: 'charge_waiting' | 'refund_sending' | 'outbox_waiting' | 'outside_window' };

/**
 * Whether a downloaded (and checked) update may be installed now. Busy always wins, even over a manager's tap: the tap
 * is remembered and the update installs as soon as the counter is idle (issue 18: "never interrupt a sale").
 */
export function installDecision(input: { activity: CounterActivity; window: MaintenanceWindow; minuteOfDay: number; managerAsked: boolean }): InstallDecision {
  const { activity } = input;
  if (activity.chargeWaiting) return { install: false, because: 'charge_waiting' };
  if (activity.refundSending) return { install: false, because: 'refund_sending' };
  if (activity.outboxWaiting > 0) return { install: false, because: 'outbox_waiting' };
  if (input.managerAsked) return { install: true, because: 'manager' };
  if (inMaintenanceWindow(input.window, input.minuteOfDay)) return { install: true, because: 'window' };
  return { install: false, because: 'outside_window' };
}

/** Whether `candidate` (x.y.z, optional -prerelease ignored for ordering beyond it) is newer than `current`. */
export function isNewerVersion(candidate: string, current: string): boolean {
  const parse = (v: string) => {
    const [core = '', pre] = v.trim().replace(/^v/, '').split('-', 2);
    return { parts: core.split('.').map((n) => Number.parseInt(n, 10) || 0), pre: pre ?? null };
  };
  const a = parse(candidate);
  const b = parse(current);
  for (let i = 0; i < 3; i += 1) {
    const diff = (a.parts[i] ?? 0) - (b.parts[i] ?? 0);
    if (diff !== 0) return diff > 0;
  }
  // 1.2.0 is newer than 1.2.0-beta.1 (semver: a release ranks above its prereleases).
  return a.pre === null && b.pre !== null;
}

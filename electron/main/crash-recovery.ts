import type { RenderProcessGoneDetails, WebContents } from 'electron';
import type { Clock, Logger } from '../core/ports.ts';

export type CrashAction = 'reload' | 'relaunch';

/**
 * When a renderer dies, reload it; when it keeps dying, the fault may be in the process around it, so relaunch the
 * app (issue 6 "render-process-gone / unresponsive → reload, and relaunch after repeated crashes"). `maxCrashes`
 * within `windowMs` (default 3 in 2 minutes) is "repeated". Takes a clock (style guide 7).
 */
export class CrashPolicy {
  readonly #clock: Clock;
  readonly #maxCrashes: number;
  readonly #windowMs: number;
  #crashes: number[] = [];

  constructor(options: { clock: Clock; maxCrashes?: number; windowMs?: number }) {
    this.#clock = options.clock;
    this.#maxCrashes = options.maxCrashes ?? 3;
    this.#windowMs = options.windowMs ?? 120_000;
  }

  record(): CrashAction {
    const now = this.#clock.now();
    this.#crashes = [...this.#crashes.filter((at) => now - at < this.#windowMs), now];
    return this.#crashes.length >= this.#maxCrashes ? 'relaunch' : 'reload';
  }
}

export type WatchedContents = Pick<WebContents, 'on' | 'reload' | 'forcefullyCrashRenderer' | 'isDestroyed'>;

export interface WatchOptions {
  policy: CrashPolicy;
  /** Restarts the whole app (app.relaunch() then app.exit()). */
  relaunch: () => void;
  /** Before the reload: the page will subscribe to events anew. */
  onReload?: () => void;
  logger: Logger;
  /** How long a page may stay unresponsive before its renderer is killed and reloaded. */
  unresponsiveGraceMs?: number;
  setTimer?: (callback: () => void, ms: number) => () => void;
}

const defaultTimer = (callback: () => void, ms: number): (() => void) => {
  const timer = setTimeout(callback, ms);
  return () => clearTimeout(timer);
};

/**
 * Watches one window's renderer. A crash (any `render-process-gone` but a clean exit) reloads the page, or relaunches
 * the app when the policy says so. A page still hung `unresponsiveGraceMs` after `unresponsive` (default 10 s) is
 * crashed on purpose, which lands in the crash path: a stuck "pending" screen is worse than a reload, because the
 * reloaded page asks the core for the order again (kiosk-expectations "Stuck pending").
 */
export function watchRenderer(contents: WatchedContents, options: WatchOptions): void {
  const setTimer = options.setTimer ?? defaultTimer;
  let cancelHang: (() => void) | null = null;
  contents.on('render-process-gone', (_event: unknown, details: RenderProcessGoneDetails) => {
    cancelHang?.();
    cancelHang = null;
    if (contents.isDestroyed() || details.reason === 'clean-exit') return;
    const action = options.policy.record();
    options.logger.error('renderer gone', { reason: details.reason, exitCode: details.exitCode, action });
    if (action === 'relaunch') return options.relaunch();
    options.onReload?.();
    contents.reload();
  });
  contents.on('unresponsive', () => {
    if (cancelHang) return;
    options.logger.warn('renderer unresponsive');
    cancelHang = setTimer(() => {
      cancelHang = null;
      if (!contents.isDestroyed()) contents.forcefullyCrashRenderer();
    }, options.unresponsiveGraceMs ?? 10_000);
  });
  contents.on('responsive', () => {
    cancelHang?.();
    cancelHang = null;
  });
}

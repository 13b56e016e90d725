import { readFileSync } from 'node:fs';
import { uptime } from 'node:os';
import { systemClock, type Clock } from '../../../node-common/time.ts';

// issue 27 item 2: a PIN lockout is measured on a monotonic clock, so a wall clock set back 2 hours cannot turn a
// 5-minute lockout into 7,500 s, nor one set forward end it early. process.hrtime.bigint() is CLOCK_MONOTONIC on Linux
// (mach_absolute_time on macOS, QueryPerformanceCounter on Windows): time since the machine booted, the same for every
// process of that boot, so a restarted kiosk reads on with the clock its lockout was set on. It starts again at a
// reboot, hence the boot identity stored beside a lockout: a reading from another boot is never compared with this one.

/** A reading of the monotonic clock: which boot it belongs to, and milliseconds on that boot's clock. */
export interface MonotonicReading {
  boot: string;
  ms: number;
}

export interface MonotonicClock {
  now(): MonotonicReading;
}

let bootIdentity: string | null = null;

/**
 * This boot's identity: Linux's /proc/sys/kernel/random/boot_id (a random UUID the kernel draws at each boot). Elsewhere,
 * when the machine booted by the wall clock, to the minute: a wall clock moved since then makes it look like another boot,
 * which only ever ends in the bounded fallback (pin.ts lockRemainingMs), never in a longer lockout.
 */
function currentBoot(): string {
  if (bootIdentity !== null) return bootIdentity;
  try {
    const id = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    if (/^[0-9a-f-]{36}$/.test(id)) return (bootIdentity = id);
  } catch {
    // Not Linux (or /proc hidden): the boot time below.
  }
  return `booted-${Math.round((Date.now() - uptime() * 1000) / 60_000)}`;
}

export const systemMonotonicClock: MonotonicClock = {
  now: () => ({ boot: currentBoot(), ms: Number(process.hrtime.bigint() / 1_000_000n) }),
};

/**
 * The monotonic clock to go with `clock`: the system's for the system clock; for a clock a test moves by hand, one that
 * follows it (a test that moves the wall clock alone passes its own MonotonicClock).
 */
export function monotonicFor(clock: Clock): MonotonicClock {
  if (clock === systemClock) return systemMonotonicClock;
  return { now: () => ({ boot: 'follows-the-wall-clock', ms: clock.now() }) };
}

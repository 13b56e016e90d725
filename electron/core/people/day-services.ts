import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { People, type SignedIn } from './people.ts';
import { ManagerPin } from './pin.ts';
import type { PinRecord } from './pin-record.ts';
import type { MonotonicClock } from './pin-clock.ts';
import { PepperedPin, PinPepper } from './pin-pepper.ts';
import { loadSave } from '../store/settings-repo.ts';
import { PeopleRepo } from '../store/people-repo.ts';
import { ShiftsRepo } from '../store/shifts-repo.ts';
import { ReportsRepo } from '../store/reports-repo.ts';
import type { KioskStore } from '../store/kiosk-store.ts';
import type { AuditLog } from '../store/audit-log.ts';
import type { Clock, Logger, TokenVault } from '../ports.ts';
import type { Result } from '../../../shared/kiosk-api.ts';
import type { DaySettings, PersonRef, Shift } from '../../../shared/day-api.ts';
import { kioskError } from '../../../shared/kiosk-errors.ts';

// issue 17 "Close the day": the services behind api/day.ts and the recording of who sold (api/sale.ts), built once by
// compose. A shift left open past DaySettings.shiftMaxHours (48 h by default, as the platform's own app) is closed by
// the kiosk with a note: at start, whenever the current shift is asked for, and by a timer set for the moment the open
// shift reaches its limit (issue 14 "Idle": a wakeup when there is something to close, not a poll; without an open
// shift the timer looks every SHIFT_CHECK_MS, since a shift may be opened without asking for the current one after).

export const DAY_SETTINGS_DEFAULTS: DaySettings = { signIn: 'off', shiftMaxHours: 48 };
const daySettingsSchema = z.object({ signIn: z.enum(['required', 'off']), shiftMaxHours: z.number().int().min(1).max(168) }).partial();
const signedInSchema = z.object({ personId: z.string().min(1), since: z.string() });
/** How often a running kiosk with no shift open looks for one (a shift open is checked when it reaches its limit). */
export const SHIFT_CHECK_MS = 10 * 60_000;
/** setTimeout's longest delay (2^31 - 1 ms, about 24.8 days); a later deadline is waited for in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * When to look next for a shift left open too long (issue 14 "Idle"): when the open shift reaches maxHours (at once if
 * it has), or after SHIFT_CHECK_MS when none is open.
 */
export function nextShiftCheckMs(open: Pick<Shift, 'openedAt'> | null, maxHours: number, now: number): number {
  if (open === null) return SHIFT_CHECK_MS;
  const due = Date.parse(open.openedAt) + maxHours * 3600_000 - now;
  return Number.isNaN(due) ? SHIFT_CHECK_MS : Math.min(Math.max(due, 0), MAX_TIMER_MS);
}

export interface DayServices {
  /** The manager PIN as it always was (the settings row manager_pin): the first manager's (people.ts). */
  firstManagerPin: PepperedPin;
  people: People;
  reports: ReportsRepo;
  shifts: ShiftsRepo;
  settings(): DaySettings;
  setSettings(settings: DaySettings): void;
  /** The open shift, after closing it if it was open past shiftMaxHours. */
  currentShift(): Shift | null;
  /** Closes the open shift if it was open past shiftMaxHours; returns it when it did. */
  closeStaleShift(): Shift | null;
  /**
   * Who sells now and in which shift, for the sale to record (issue 17: "every sale records who did it"):
   * sign_in_required when the settings require a cashier and nobody is signed in.
   */
  seller(): Result<{ cashier: PersonRef | null; shiftId: string | null }>;
  /**
   * Who sold at `at` (epoch ms), and in which shift, as far as the kiosk can tell afterwards: crash recovery's orders,
   * whose create was stored before it was sent but never answered (orders/recovery.ts). The cashier signed in now, when they
   * have been since before `at` (a sign-in or sign-out since would have replaced or removed the signed-in row, and then
   * nobody is known: null); the shift that was open at `at` (one at a time, so the last opened before it, if not yet
   * closed then).
   */
  sellerAt(at: number): { cashier: PersonRef | null; shiftId: string | null };
  start(): void;
  stop(): void;
}

/**
 * The people, shifts and reports over the kiosk's store, and the manager PIN they start from. issue 12: every PIN hash is
 * keyed with one pepper from the vault (pin-pepper.ts); training without a keychain forgets the PIN whose pepper died
 * with the last process (PepperedPin.forgetIfPepperLost).
 */
export async function composeDay(o: {
  store: KioskStore;
  vault: TokenVault;
  clock: Clock;
  logger: Logger;
  /** issue 27: what PIN lockouts are measured on (pin-clock.ts); by default the system's for the system clock. */
  monotonic?: MonotonicClock | undefined;
}): Promise<DayServices> {
  const { store, clock } = o;
  const audit: AuditLog = store.audit;
  const pepper = new PinPepper(o.vault);
  const pinKv = store.settingsRepo.kv<PinRecord>('manager_pin');
  const firstManagerPin = new PepperedPin(new ManagerPin(loadSave(pinKv), clock, o.monotonic), pepper);
  const repo = new PeopleRepo(store.db, clock);
  // Every person's PIN was keyed with that same pepper: none can be checked again, so all are forgotten with it (a
  // manager gives them new ones), rather than have one uncheckable record refuse every manager PIN.
  const forget = () => {
    pinKv.delete();
    repo.clearPins();
  };
  if (await firstManagerPin.forgetIfPepperLost(forget)) {
    o.logger.warn('training without a keychain lost the PIN key at the last restart: the manager PIN must be set again, and the people given new PINs');
    audit.append({ actor: 'kiosk', action: 'pin.forgotten', subject: null, detail: { vault: 'memory' } });
  }
  const kv = store.settingsRepo.kv('day_settings', daySettingsSchema);
  const people = new People({
    repo,
    firstManagerPin: loadSave(pinKv),
    pepper,
    clock,
    ...(o.monotonic ? { monotonic: o.monotonic } : {}),
    newId: () => randomUUID(),
    signedIn: store.settingsRepo.kv<SignedIn>('signed_in', signedInSchema),
  });
  const shifts = new ShiftsRepo(store.db);
  const settings = (): DaySettings => ({ ...DAY_SETTINGS_DEFAULTS, ...(kv.get() ?? {}) });
  let timer: ReturnType<typeof setTimeout> | null = null;
  /** When the timer fires (clock time), or null when stopped. */
  let timerAt: number | null = null;

  const check = () => {
    try {
      closeStaleShift();
    } catch (error) {
      o.logger.warn('the open shift could not be checked', { error: error instanceof Error ? error.name : 'unknown' });
      // Not the "at once" a stale shift asked for, which would fail again in a loop.
      arm(SHIFT_CHECK_MS, true);
    }
  };
  /** Sets the timer to fire in delayMs, unless it is stopped or (not forced) already fires sooner. */
  const arm = (delayMs: number, force = false) => {
    if (timerAt === null || (!force && timerAt <= clock.now() + delayMs)) return;
    if (timer !== null) clearTimeout(timer);
    timerAt = clock.now() + delayMs;
    timer = setTimeout(() => {
      timerAt = Number.POSITIVE_INFINITY;
      check();
    }, delayMs);
    timer.unref?.();
  };

  const closeStaleShift = (): Shift | null => {
    const open = shifts.current();
    const maxHours = settings().shiftMaxHours;
    // Every look (the timer's, a sale's, a screen's) sets the timer for the shift it sees, e.g. one opened since.
    arm(nextShiftCheckMs(open, maxHours, clock.now()));
    if (open === null || clock.now() - Date.parse(open.openedAt) < maxHours * 3600_000) return null;
    const closed = shifts.close(open.id, new Date(clock.now()).toISOString(), null, `Closed by the kiosk: open longer than ${maxHours} h.`, true);
    audit.append({ actor: 'kiosk', action: 'shift.auto_closed', subject: open.id, detail: { maxHours } });
    return closed;
  };

  return {
    firstManagerPin,
    people,
    reports: new ReportsRepo(store.db),
    shifts,
    settings,
    setSettings: (next) => kv.set(next),
    currentShift: () => {
      closeStaleShift();
      return shifts.current();
    },
    closeStaleShift,
    seller: () => {
      const signed = people.current();
      if (signed === null && settings().signIn === 'required') return { ok: false, error: kioskError('sign_in_required') };
      closeStaleShift();
      return { ok: true, value: { cashier: signed ? { id: signed.person.id, name: signed.person.name } : null, shiftId: shifts.current()?.id ?? null } };
    },
    sellerAt: (at) => {
      const signed = people.current();
      const cashier = signed !== null && Date.parse(signed.since) <= at ? { id: signed.person.id, name: signed.person.name } : null;
      const [shift] = shifts.list(new Date(at + 1).toISOString(), 1);
      const shiftId = shift !== undefined && (shift.closedAt === null || Date.parse(shift.closedAt) > at) ? shift.id : null;
      return { cashier, shiftId };
    },
    start() {
      if (timerAt !== null) return;
      timerAt = Number.POSITIVE_INFINITY;
      check();
    },
    stop() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      timerAt = null;
    },
  };
}

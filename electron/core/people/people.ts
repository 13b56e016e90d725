import { ManagerPin, type PinSetResult, type PinVerifyResult } from './pin.ts';
import { deriveDummy, hashPinAsync } from './pin-hash.ts';
import type { PinStore } from './pin-record.ts';
import type { MonotonicClock } from './pin-clock.ts';
import { PepperedPin, type PinPepper } from './pin-pepper.ts';
import { FIRST_MANAGER_ID, type PeopleRepo, type PersonRow } from '../store/people-repo.ts';
import type { KeyValue } from '../store/settings-repo.ts';
import type { Clock } from '../ports.ts';
import type { KioskError, Result } from '../../../shared/kiosk-api.ts';
import type { Person, PersonRef, PersonRole } from '../../../shared/day-api.ts';
import { kioskError } from '../../../shared/kiosk-errors.ts';

// issue 17 "People": cashiers and managers, each with their own PIN, hashed, peppered and locked out exactly as the
// manager PIN (pin.ts, pin-pepper.ts: one ManagerPin per person over their own record). The first manager's record is
// the settings row manager_pin, the PIN the account's first connection set, so nothing was copied to make them.

/** Who is signed in to sell (a settings row, so a restart keeps the cashier). */
export interface SignedIn {
  personId: string;
  since: string;
}

export interface PeopleOptions {
  repo: PeopleRepo;
  /** The first manager's PIN record: the settings row manager_pin. */
  firstManagerPin: PinStore;
  pepper: PinPepper;
  clock: Clock;
  /** issue 27: what PIN lockouts are measured on (pin-clock.ts); by default the system's for the system clock. */
  monotonic?: MonotonicClock;
  newId: () => string;
  signedIn: KeyValue<SignedIn>;
}

export type ManagerVerdict = PinVerifyResult & { person?: PersonRef };

export class People {
  readonly #o: PeopleOptions;

  constructor(options: PeopleOptions) {
    this.#o = options;
  }

  /** The people not removed, in the order they were added; never a hash. */
  list(): Person[] {
    return this.#o.repo.list().map((row) => ({ id: row.id, name: row.name, role: row.role, hasPin: this.#pin(row).isSet() }));
  }

  /** The person (not removed), or null. */
  find(id: string): PersonRow | null {
    const row = this.#o.repo.get(id);
    return row === null || row.removed ? null : row;
  }

  /** Whether any manager has a PIN: the guards' pin_not_set. */
  isSet(): boolean {
    return this.#managers().some((row) => this.#pin(row).isSet());
  }

  /**
   * Whether `given` is a manager's PIN, and whose (issue 17: "refunds and settings are approved by a manager's own PIN").
   *
   * issue 27 item 2, a PIN that holds under pressure: the attempt is counted first, before any hash, against its owner,
   * in one transaction: the person signed in when one is (a cashier's wrong PINs count against the cashier, never the
   * managers: a cashier cannot lock the managers out), else every manager (five wrong PINs lock the manager PIN pad, as
   * they always did). Then every manager's hash is derived, whatever the answer will be (the same work for a right,
   * wrong or locked attempt). A PIN is accepted when it is a manager's who is not locked and the attempt's owner was not
   * locked; a right PIN of a locked manager answers exactly like a wrong one (anything else would say it is someone's
   * PIN). When accepted, the attempt reserved against the others is given back and that manager's own count starts
   * over. Refused: locked when every owner is locked, else wrong_pin with the fewest attempts left. Rejects like
   * PepperedPin (nothing counted then).
   */
  async verify(given: string): Promise<ManagerVerdict> {
    const managers = this.#managers().filter((row) => this.#manager(row).isSet());
    if (managers.length === 0) {
      await deriveDummy();
      return { ok: false, reason: 'not_set' };
    }
    const signedIn = this.current()?.person ?? null;
    const owner = signedIn !== null && this.#manager(signedIn).isSet() ? signedIn : null;
    const owners = owner === null ? managers : [owner];
    const pepper = await this.#pepperFor(owner === null ? managers : [...managers, owner]);
    const reservations = this.#o.repo.atomically(() => owners.map((row) => this.#manager(row).reserve(pepper)));
    const matched = await Promise.all(managers.map((row) => this.#manager(row).matches(given, pepper)));
    const index = matched.indexOf(true);
    const hit = index < 0 ? null : (managers[index] as PersonRow);
    if (hit !== null) {
      if (owner === null) {
        const own = reservations[index];
        if (own?.kind === 'reserved') {
          await this.#manager(hit).settle(own, true, given, pepper);
          this.#o.repo.atomically(() => {
            for (const [i, row] of managers.entries()) {
              const reservation = reservations[i];
              if (i !== index && reservation) this.#manager(row).refund(reservation);
            }
          });
          return { ok: true, person: { id: hit.id, name: hit.name } };
        }
      } else {
        const theirs = reservations[0];
        if (theirs?.kind === 'reserved' && owner.id === hit.id) {
          await this.#manager(hit).settle(theirs, true, given, pepper);
          return { ok: true, person: { id: hit.id, name: hit.name } };
        }
        if (theirs?.kind === 'reserved' && !this.#manager(hit).isLocked()) {
          this.#manager(owner).refund(theirs);
          // That manager's own wrong attempts start over with their right PIN, as at their sign-in.
          const own = this.#manager(hit).reserve(pepper);
          if (own !== null) await this.#manager(hit).settle(own, true, given, pepper);
          return { ok: true, person: { id: hit.id, name: hit.name } };
        }
      }
    }
    const verdicts: PinVerifyResult[] = [];
    for (const [i, row] of owners.entries()) {
      const reservation = reservations[i];
      verdicts.push(reservation ? await this.#manager(row).settle(reservation, false, given, pepper) : { ok: false, reason: 'not_set' });
    }
    const wrong = verdicts.filter((v) => !v.ok && v.reason === 'wrong_pin') as Array<{ ok: false; reason: 'wrong_pin'; attemptsLeft: number }>;
    if (wrong.length > 0) return { ok: false, reason: 'wrong_pin', attemptsLeft: Math.min(...wrong.map((v) => v.attemptsLeft)) };
    const locked = verdicts.filter((v) => !v.ok && v.reason === 'locked') as Array<{ ok: false; reason: 'locked'; retryAfterSeconds: number }>;
    if (locked.length === 0) return { ok: false, reason: 'not_set' };
    return { ok: false, reason: 'locked', retryAfterSeconds: Math.min(...locked.map((v) => v.retryAfterSeconds)) };
  }

  /**
   * The person's own PIN, under their own attempt limit (sign-in, opening and closing a shift). issue 27: counted before
   * its hash, and one hash derived whatever the answer, an unknown person's included.
   */
  async verifyPerson(id: string, given: string): Promise<Result<PersonRow>> {
    const row = this.find(id);
    if (row === null) {
      await deriveDummy();
      return { ok: false, error: kioskError('person_not_found') };
    }
    const verdict = await this.#manager(row).verify(given, await this.#pepperFor([row]));
    return verdict.ok ? { ok: true, value: row } : { ok: false, error: pinVerdictError(verdict) };
  }

  /** Adds a person with their PIN. pin_taken when a new manager's PIN is another manager's. */
  async add(person: { name: string; role: PersonRole; pin: string }): Promise<Result<Person>> {
    const taken = person.role === 'manager' ? await this.#managerPinTaken(person.pin, null) : null;
    if (taken) return { ok: false, error: taken };
    const id = this.#o.newId();
    this.#o.repo.insert({ id, name: person.name, role: person.role, pin: await hashPinAsync(person.pin, await this.#o.pepper.readOrCreate()) });
    return { ok: true, value: { id, name: person.name, role: person.role, hasPin: true } };
  }

  /**
   * Changes what is given. last_manager when the change would leave no manager; pin_taken for a manager's PIN another
   * manager has (a cashier made manager keeps their PIN, which is then checked like a new one would be, when given).
   */
  async update(id: string, change: { name?: string | undefined; role?: PersonRole | undefined; pin?: string | undefined }): Promise<Result<Person>> {
    const row = this.find(id);
    if (row === null) return { ok: false, error: kioskError('person_not_found') };
    const role = change.role ?? row.role;
    if (row.role === 'manager' && role !== 'manager' && this.#managers().length === 1) return { ok: false, error: kioskError('last_manager') };
    if (change.pin !== undefined && role === 'manager') {
      const taken = await this.#managerPinTaken(change.pin, id);
      if (taken) return { ok: false, error: taken };
    }
    this.#o.repo.update(id, { name: change.name ?? row.name, role });
    if (change.pin !== undefined) this.#store(row).save(await hashPinAsync(change.pin, await this.#o.pepper.readOrCreate()));
    const updated = this.find(id) as PersonRow;
    return { ok: true, value: { id, name: updated.name, role: updated.role, hasPin: this.#pin(updated).isSet() } };
  }

  /**
   * setPin: the first manager's PIN, set at the account's first connection or changed with the current one (pin.ts
   * ManagerPin.set's answers), and pin_taken when another manager has the new PIN (a manager is known by their PIN, as in
   * add and update). The current PIN is checked first, a wrong one counted and a lockout honoured, so only someone who
   * knows it learns that a number is another manager's PIN; set then checks it again (one more scrypt, on success only)
   * and keeps its own rules and pepper. A first manager without a PIN while another manager has one (theirs was
   * forgotten) is given one only with a manager's PIN: otherwise anyone could make themselves a manager.
   */
  async setFirstManagerPin(newPin: string, currentPin?: string): Promise<PinSetResult | { ok: false; reason: 'pin_taken' }> {
    const pin = new PepperedPin(new ManagerPin(this.#o.firstManagerPin, this.#o.clock, this.#o.monotonic), this.#o.pepper);
    if (pin.isSet() || this.isSet()) {
      if (currentPin === undefined) return { ok: false, reason: 'current_pin_required' };
      const check = pin.isSet() ? await pin.verify(currentPin) : await this.verify(currentPin);
      if (!check.ok) return check.reason === 'not_set' ? { ok: false, reason: 'current_pin_required' } : check;
    }
    if (await this.#managerPinTaken(newPin, FIRST_MANAGER_ID)) return { ok: false, reason: 'pin_taken' };
    return pin.set(newPin, currentPin);
  }

  /** Removes a person (their past sales keep their name); signs them out. last_manager for the last manager. */
  remove(id: string): Result<{ removed: true }> {
    const row = this.find(id);
    if (row === null) return { ok: false, error: kioskError('person_not_found') };
    if (row.role === 'manager' && this.#managers().length === 1) return { ok: false, error: kioskError('last_manager') };
    this.#o.repo.remove(id);
    if (this.#o.signedIn.get()?.personId === id) this.#o.signedIn.delete();
    return { ok: true, value: { removed: true } };
  }

  /** Who is signed in to sell, or null (nobody, or someone since removed). */
  current(): { person: PersonRow; since: string } | null {
    const signed = this.#o.signedIn.get();
    if (signed === null) return null;
    const person = this.find(signed.personId);
    return person === null ? null : { person, since: signed.since };
  }

  signIn(person: PersonRow): void {
    this.#o.signedIn.set({ personId: person.id, since: new Date(this.#o.clock.now()).toISOString() });
  }

  signOut(): void {
    this.#o.signedIn.delete();
  }

  #managers(): PersonRow[] {
    return this.#o.repo.list().filter((row) => row.role === 'manager');
  }

  async #managerPinTaken(pin: string, except: string | null): Promise<KioskError | null> {
    for (const row of this.#managers()) {
      if (row.id !== except && (await this.#pin(row).matches(pin))) return kioskError('pin_taken');
    }
    return null;
  }

  #store(row: PersonRow): PinStore {
    if (row.id === FIRST_MANAGER_ID) return this.#o.firstManagerPin;
    const repo = this.#o.repo;
    // The record is read again at each use (pin.ts validates it then), so attempts counted a moment ago are seen.
    return { load: () => (repo.get(row.id)?.pin ?? null) as ReturnType<PinStore['load']>, save: (record) => repo.savePin(row.id, record) };
  }

  #pin(row: PersonRow): PepperedPin {
    return new PepperedPin(this.#manager(row), this.#o.pepper);
  }

  /** The person's PIN record without the pepper: the caller passes it (#pepperFor), read once for every record. */
  #manager(row: PersonRow): ManagerPin {
    return new ManagerPin(this.#store(row), this.#o.clock, this.#o.monotonic);
  }

  /**
   * The pepper for checking these records, as PepperedPin chooses it: the stored one when any is keyed with it
   * (undefined when it is gone: reserve then throws PinPepperMissingError, nothing counted); otherwise the stored or a
   * new one, to re-hash a record from before the pepper.
   */
  async #pepperFor(rows: PersonRow[]): Promise<Buffer | undefined> {
    const peppered = rows.some((row) => this.#manager(row).isPeppered());
    return (peppered ? await this.#o.pepper.read() : await this.#o.pepper.readOrCreate()) ?? undefined;
  }
}

/** A refused PIN as the contract's error: the one wording for every PIN check (the guards', a person's own). */
export function pinVerdictError(verdict: Exclude<PinVerifyResult, { ok: true }>): KioskError {
  if (verdict.reason === 'not_set') return kioskError('pin_not_set');
  if (verdict.reason === 'locked') return kioskError('pin_locked', `Too many wrong PINs; try again in ${verdict.retryAfterSeconds} s.`);
  return kioskError('wrong_pin');
}

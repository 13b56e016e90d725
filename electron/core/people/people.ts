import { ManagerPin, hashPin, type PinSetResult, type PinStore, type PinVerifyResult } from '../pin.ts';
import { PepperedPin, type PinPepper } from '../pin-pepper.ts';
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
   * The PIN is first matched against each manager without counting; the one it matches is then verified (its lockout
   * applies: a locked manager's right PIN is refused, and a right one clears their wrong attempts). A PIN no manager
   * has counts a wrong attempt against every manager, so five wrong PINs lock the manager PIN pad as they always did.
   * Answers locked when every manager is locked, else wrong_pin with the fewest attempts left. Rejects like PepperedPin.
   */
  async verify(given: string): Promise<ManagerVerdict> {
    const managers = this.#managers().filter((row) => this.#pin(row).isSet());
    if (managers.length === 0) return { ok: false, reason: 'not_set' };
    for (const row of managers) {
      if (!(await this.#pin(row).matches(given))) continue;
      const verdict = await this.#pin(row).verify(given);
      return verdict.ok ? { ok: true, person: { id: row.id, name: row.name } } : verdict;
    }
    const verdicts = [];
    for (const row of managers) verdicts.push(await this.#pin(row).verify(given));
    const wrong = verdicts.filter((v) => !v.ok && v.reason === 'wrong_pin') as Array<{ ok: false; reason: 'wrong_pin'; attemptsLeft: number }>;
    if (wrong.length > 0) return { ok: false, reason: 'wrong_pin', attemptsLeft: Math.min(...wrong.map((v) => v.attemptsLeft)) };
    const locked = verdicts.filter((v) => !v.ok && v.reason === 'locked') as Array<{ ok: false; reason: 'locked'; retryAfterSeconds: number }>;
    return { ok: false, reason: 'locked', retryAfterSeconds: Math.min(...locked.map((v) => v.retryAfterSeconds)) };
  }

  /** The person's own PIN, under their own attempt limit (sign-in, opening and closing a shift). */
  async verifyPerson(id: string, given: string): Promise<Result<PersonRow>> {
    const row = this.find(id);
    if (row === null) return { ok: false, error: kioskError('person_not_found') };
    const verdict = await this.#pin(row).verify(given);
    return verdict.ok ? { ok: true, value: row } : { ok: false, error: pinVerdictError(verdict) };
  }

  /** Adds a person with their PIN. pin_taken when a new manager's PIN is another manager's. */
  async add(person: { name: string; role: PersonRole; pin: string }): Promise<Result<Person>> {
    const taken = person.role === 'manager' ? await this.#managerPinTaken(person.pin, null) : null;
    if (taken) return { ok: false, error: taken };
    const id = this.#o.newId();
    this.#o.repo.insert({ id, name: person.name, role: person.role, pin: hashPin(person.pin, await this.#o.pepper.readOrCreate()) });
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
    if (change.pin !== undefined) this.#store(row).save(hashPin(change.pin, await this.#o.pepper.readOrCreate()));
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
    const pin = new PepperedPin(new ManagerPin(this.#o.firstManagerPin, this.#o.clock), this.#o.pepper);
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
    return new PepperedPin(new ManagerPin(this.#store(row), this.#o.clock), this.#o.pepper);
  }
}

/** A refused PIN as the contract's error: the one wording for every PIN check (the guards', a person's own). */
export function pinVerdictError(verdict: Exclude<PinVerifyResult, { ok: true }>): KioskError {
  if (verdict.reason === 'not_set') return kioskError('pin_not_set');
  if (verdict.reason === 'locked') return kioskError('pin_locked', `Too many wrong PINs; try again in ${verdict.retryAfterSeconds} s.`);
  return kioskError('wrong_pin');
}

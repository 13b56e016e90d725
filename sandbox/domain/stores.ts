import type { Clock } from '../clock.ts';
import { isoTimestamp } from '../clock.ts';
import type { IdGenerator } from '../ids.ts';
import { WEEKDAYS, type BusinessHours, type SandboxState, type StoreLocation, type StoreRecord } from '../state.ts';
import { StoresPosError } from './errors.ts';

export type Body = Record<string, unknown>;

/** platform-facts: a store's external_id is at most 60 characters. */
const STORE_EXTERNAL_ID_MAX = 60;
const STORE_FIELDS = new Set(['name', 'location', 'business_hours', 'external_id']);
const LOCATION_TEXT = ['street_number', 'street_name', 'city_name', 'state_name'] as const;
const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;
/** Long enough for any real name or address, short enough that nobody stores a document in one. */
const TEXT_MAX = 200;
export const DEFAULT_PAGE_LIMIT = 50;
export const MAX_PAGE_LIMIT = 100;

export interface Page<T> {
  paging: { total: number; offset: number; limit: number };
  results: T[];
}

/** Numeric text only: the platform's store and POS ids (and user ids) are numbers. */
export const NUMERIC_ID = /^[0-9]{1,18}$/;

/** platform-facts "Stores and points of sale": a seller's stores (sucursales). */
export class StoreService {
  constructor(
    private readonly state: SandboxState,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  /** POST /users/{user_id}/stores. Failure: StoresPosError (400 codes of the table, 409 conflict). */
  create(userId: string, body: Body | undefined): StoreRecord {
    const input = requireBody(body, STORE_FIELDS);
    const now = this.clock.now();
    const store: StoreRecord = {
      id: this.ids.unusedDigits(8, this.state.stores),
      user_id: userId,
      name: storeName(input.name),
      location: location(input.location),
      date_created: now,
      date_last_updated: now,
    };
    if (input.business_hours !== undefined) store.business_hours = businessHours(input.business_hours);
    if (input.external_id !== undefined) store.external_id = this.#externalId(userId, input.external_id, null);
    return this.state.stores.put(store.id, store);
  }

  /** Creates a store the seller did not ask for: the control API's default store (training stays zero-config). */
  createDefault(userId: string, name: string, location: StoreLocation): StoreRecord {
    const now = this.clock.now();
    const store: StoreRecord = { id: this.ids.unusedDigits(8, this.state.stores), user_id: userId, name, location, date_created: now, date_last_updated: now };
    return this.state.stores.put(store.id, store);
  }

  /** GET /stores/{id}: another seller's store is not_found, as if it did not exist. */
  find(userId: string, id: string): StoreRecord {
    if (!NUMERIC_ID.test(id)) throw new StoresPosError('INVALID_STORE_ID', `Store id ${id.slice(0, 64)} is not numeric.`);
    const store = this.state.stores.get(id);
    if (!store || store.user_id !== userId) throw new StoresPosError('not_found', `No store ${id}.`);
    return store;
  }

  /** The seller's store with this external id, if any. */
  findByExternalId(userId: string, externalId: string): StoreRecord | undefined {
    for (const store of this.state.stores.values()) if (store.user_id === userId && store.external_id === externalId) return store;
    return undefined;
  }

  search(userId: string, query: { external_id?: string }, offset: number, limit: number): Page<StoreRecord> {
    const matches = [...this.state.stores.values()].filter((s) => s.user_id === userId && (query.external_id === undefined || s.external_id === query.external_id));
    return { paging: { total: matches.length, offset, limit }, results: matches.slice(offset, offset + limit) };
  }

  /** PUT /users/{user_id}/stores/{id}: the fields given replace the store's; the rules are create's. */
  update(userId: string, id: string, body: Body | undefined): StoreRecord {
    const store = this.find(userId, id);
    const input = requireBody(body, STORE_FIELDS);
    if (input.name !== undefined) store.name = storeName(input.name);
    if (input.location !== undefined) store.location = location(input.location);
    if (input.business_hours !== undefined) store.business_hours = businessHours(input.business_hours);
    if (input.external_id !== undefined) store.external_id = this.#externalId(userId, input.external_id, store.id);
    store.date_last_updated = this.clock.now();
    return this.state.stores.put(store.id, store);
  }

  /**
   * DELETE /users/{user_id}/stores/{id}. A store that still has points of sale is refused (409 conflict; decision,
   * sandbox/README.md): deleting it would leave POS in no store, and the kiosk's orders would lose their POS silently.
   */
  remove(userId: string, id: string): StoreRecord {
    const store = this.find(userId, id);
    for (const pos of this.state.pos.values()) {
      if (pos.store_id === store.id) throw new StoresPosError('conflict', `Store ${id} still has points of sale (${pos.external_id}); delete them first.`);
    }
    this.state.stores.delete(store.id);
    return store;
  }

  /** platform-facts: the store with its id, date_created and the fields sent. */
  render(store: StoreRecord): Body {
    const l = store.location;
    return {
      id: store.id,
      name: store.name,
      date_created: isoTimestamp(store.date_created),
      location: { ...l, address_line: `${l.street_name} ${l.street_number}, ${l.city_name}, ${l.state_name}` },
      ...(store.business_hours ? { business_hours: store.business_hours } : {}),
      ...(store.external_id !== undefined ? { external_id: store.external_id } : {}),
    };
  }

  #externalId(userId: string, value: unknown, selfId: string | null): string {
    if (typeof value !== 'string' || value.trim() === '') throw new StoresPosError('INVALID_EXTERNAL_ID', 'external_id must be non-empty text.');
    if (value.length > STORE_EXTERNAL_ID_MAX) throw new StoresPosError('EXTERNAL_ID_TOO_LONG', `external_id must be at most ${STORE_EXTERNAL_ID_MAX} characters.`);
    const other = this.findByExternalId(userId, value);
    if (other && other.id !== selfId) throw new StoresPosError('conflict', `Store ${other.id} already has external_id ${value}.`);
    return value;
  }
}

/** MISSING_BODY for no body or not an object; UNKNOWN_FIELD_EXCEPTION names the first field outside `fields`. */
export function requireBody(body: Body | undefined, fields: ReadonlySet<string>): Body {
  if (body === undefined || typeof body !== 'object' || body === null || Array.isArray(body)) throw new StoresPosError('MISSING_BODY');
  const unknown = Object.keys(body).find((k) => !fields.has(k));
  if (unknown !== undefined) throw new StoresPosError('UNKNOWN_FIELD_EXCEPTION', `Unknown field ${unknown.slice(0, 64)}.`);
  return body;
}

function storeName(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '' || value.length > TEXT_MAX) throw new StoresPosError('INVALID_NAME', `name is required text of at most ${TEXT_MAX} characters.`);
  return value;
}

/** platform-facts: the platform needs a real location; reference is optional (decision, sandbox/README.md). */
function location(value: unknown): StoreLocation {
  const fields = new Set<string>([...LOCATION_TEXT, 'latitude', 'longitude', 'reference']);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new StoresPosError('INVALID_LOCATION', 'location is required and must be an object.');
  const l = value as Body;
  const unknown = Object.keys(l).find((k) => !fields.has(k));
  if (unknown !== undefined) throw new StoresPosError('UNKNOWN_FIELD_EXCEPTION', `Unknown field location.${unknown.slice(0, 64)}.`);
  for (const field of LOCATION_TEXT) {
    const text = l[field];
    if (typeof text !== 'string' || text.trim() === '' || text.length > TEXT_MAX) throw new StoresPosError('INVALID_LOCATION', `location.${field} is required text.`);
  }
  const { latitude, longitude, reference } = l;
  if (typeof latitude !== 'number' || !Number.isFinite(latitude) || Math.abs(latitude) > 90) throw new StoresPosError('INVALID_LOCATION', 'location.latitude must be a number from -90 to 90.');
  if (typeof longitude !== 'number' || !Number.isFinite(longitude) || Math.abs(longitude) > 180) throw new StoresPosError('INVALID_LOCATION', 'location.longitude must be a number from -180 to 180.');
  if (reference !== undefined && (typeof reference !== 'string' || reference.length > TEXT_MAX)) throw new StoresPosError('INVALID_LOCATION', 'location.reference must be text.');
  return {
    street_number: l.street_number as string,
    street_name: l.street_name as string,
    city_name: l.city_name as string,
    state_name: l.state_name as string,
    latitude,
    longitude,
    ...(reference !== undefined ? { reference } : {}),
  };
}

/** platform-facts: per weekday a list of {open, close} "HH:MM", at most 2 a day. */
function businessHours(value: unknown): BusinessHours {
  const bad = (why: string) => new StoresPosError('INVALID_BUSINESS_HOURS', `business_hours: ${why}.`);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw bad('must be an object keyed by weekday');
  const days = new Set<string>(WEEKDAYS);
  const out: BusinessHours = {};
  for (const [day, ranges] of Object.entries(value)) {
    if (!days.has(day)) throw bad(`${day.slice(0, 32)} is not a weekday (monday … sunday)`);
    if (!Array.isArray(ranges) || ranges.length > 2) throw bad(`${day} must be a list of at most 2 ranges`);
    out[day as keyof BusinessHours] = ranges.map((r: unknown) => {
      const { open, close, ...rest } = (typeof r === 'object' && r !== null ? r : {}) as Body;
      if (typeof open !== 'string' || typeof close !== 'string' || !HHMM.test(open) || !HHMM.test(close) || Object.keys(rest).length > 0) {
        throw bad(`${day} ranges are {"open":"HH:MM","close":"HH:MM"}`);
      }
      if (open >= close) throw bad(`${day} opens at ${open}, which is not before ${close}`);
      return { open, close };
    });
  }
  return out;
}

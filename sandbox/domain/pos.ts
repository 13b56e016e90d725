import type { Clock } from '../clock.ts';
import { isoTimestamp } from '../clock.ts';
import type { IdGenerator } from '../ids.ts';
import type { PosRecord, SandboxState, SellerRecord, StoreRecord } from '../state.ts';
import { sellerQr } from './sellers.ts';
import { StoresPosError } from './errors.ts';
import { NUMERIC_ID, requireBody, type Body, type Page, type StoreService } from './stores.ts';

/** platform-facts: name under 45 characters, external_id letters and digits under 40, url (decision) at most 255. */
const NAME_LIMIT = 45;
const EXTERNAL_ID_LIMIT = 40;
const URL_MAX = 255;
const ALNUM = /^[A-Za-z0-9]+$/;
const POS_FIELDS = new Set(['name', 'fixed_amount', 'store_id', 'external_store_id', 'external_id', 'category', 'url']);

/**
 * platform-facts: category is "a numeric MCC valid for the seller's site, e.g. 621102 retail". The platform's list is
 * not public; the sandbox knows this short one (decision, sandbox/README.md "Stores and POS"). Extend it here.
 */
const SITE_MCCS: Record<string, ReadonlySet<number>> = {
  AR: new Set([621102]),
  BR: new Set([621102]),
  CL: new Set([621102]),
  UY: new Set([621102]),
};

/** The public paths of a POS's static QR files (no token: the platform's are plain image links too). */
export const qrPaths = (uuid: string) => ({
  image: `/instore/qr/${uuid}.png`,
  template_document: `/instore/qr/${uuid}/template.pdf`,
  template_image: `/instore/qr/${uuid}/template.png`,
});

/** platform-facts "Stores and points of sale": a seller's points of sale (cajas), each with its static QR. */
export class PosService {
  constructor(
    private readonly state: SandboxState,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly stores: StoreService,
  ) {}

  /** POST /pos. Failure: StoresPosError (the POS codes of platform-facts; 409 conflict for a repeated external_id). */
  create(seller: SellerRecord, body: Body | undefined): PosRecord {
    const input = requireBody(body, POS_FIELDS);
    const name = posName(input.name);
    const fixedAmount = input.fixed_amount === undefined ? false : fixedAmountOf(input.fixed_amount);
    const store = this.#store(seller.user_id, input.store_id, input.external_store_id, true) as StoreRecord;
    const externalId = this.#externalId(seller.user_id, input.external_id, null);
    const category = input.category === undefined ? undefined : categoryOf(seller, input.category);
    const url = input.url === undefined ? undefined : urlOf(input.url, fixedAmount);
    return this.#put(seller.user_id, { name, fixed_amount: fixedAmount, store_id: store.id, external_id: externalId, uuid: this.ids.uuid(), category, url });
  }

  /**
   * A POS made outside POST /pos: the control API's default POS and data files from before issue 16. Its external id
   * keeps the control API's rules (platform-facts "Conflict noted": `-` and `_` allowed), and a qr_id given is kept so
   * a QR printed before stays valid.
   */
  createDefault(userId: string, store: StoreRecord, externalId: string, qrId = this.ids.uuid()): PosRecord {
    return this.#put(userId, { name: externalId.slice(0, NAME_LIMIT - 1), fixed_amount: false, store_id: store.id, external_id: externalId, uuid: qrId, category: undefined, url: undefined });
  }

  /** GET /pos/{id}: a non-numeric id is INVALID_POS_ID; another seller's POS is not_found, as if it did not exist. */
  find(userId: string, id: string): PosRecord {
    if (!NUMERIC_ID.test(id)) throw new StoresPosError('INVALID_POS_ID', `POS id ${id.slice(0, 64)} is not numeric.`);
    const pos = this.state.pos.get(id);
    if (!pos || pos.user_id !== userId) throw new StoresPosError('not_found', `No point of sale ${id}.`);
    return pos;
  }

  /** GET /pos?external_id=&store_id=&external_store_id= (each optional; together they must all match). */
  search(userId: string, query: { external_id?: string; store_id?: string; external_store_id?: string }, offset: number, limit: number): Page<PosRecord> {
    const storeByExternal = query.external_store_id === undefined ? undefined : this.stores.findByExternalId(userId, query.external_store_id);
    if (query.external_store_id !== undefined && !storeByExternal) return { paging: { total: 0, offset, limit }, results: [] };
    let matches: PosRecord[];
    if (query.external_id !== undefined) {
      const one = this.state.posOf(userId, query.external_id);
      matches = one ? [one] : [];
    } else {
      matches = [...this.state.pos.values()].filter((p) => p.user_id === userId);
    }
    matches = matches.filter((p) => (query.store_id === undefined || p.store_id === query.store_id) && (!storeByExternal || p.store_id === storeByExternal.id));
    return { paging: { total: matches.length, offset, limit }, results: matches.slice(offset, offset + limit) };
  }

  /** PUT /pos/{id}: the fields given replace the POS's, with create's rules; the static QR never changes. */
  update(seller: SellerRecord, id: string, body: Body | undefined): PosRecord {
    const pos = this.find(seller.user_id, id);
    const input = requireBody(body, POS_FIELDS);
    const name = input.name === undefined ? pos.name : posName(input.name);
    const fixedAmount = input.fixed_amount === undefined ? pos.fixed_amount : fixedAmountOf(input.fixed_amount);
    const store = this.#store(seller.user_id, input.store_id, input.external_store_id, false);
    const externalId = input.external_id === undefined ? pos.external_id : this.#externalId(seller.user_id, input.external_id, pos.id);
    const category = input.category === undefined ? pos.category : categoryOf(seller, input.category);
    const url = input.url === undefined ? pos.url : urlOf(input.url, fixedAmount);
    if (url !== undefined && !fixedAmount) throw new StoresPosError('FIXED_AMOUNT_FALSE');
    this.state.unindexPos(pos);
    Object.assign(pos, { name, fixed_amount: fixedAmount, external_id: externalId, date_last_updated: this.clock.now() });
    if (store) pos.store_id = store.id;
    setOptional(pos, 'category', category);
    setOptional(pos, 'url', url);
    this.state.indexPos(pos);
    return this.state.pos.put(pos.id, pos);
  }

  /** DELETE /pos/{id}: afterwards an order naming its external id is pos_not_found (seed 7.3). */
  remove(userId: string, id: string): PosRecord {
    const pos = this.find(userId, id);
    this.state.pos.delete(pos.id);
    this.state.unindexPos(pos);
    return pos;
  }

  /** The POS whose static QR has this id (a scan of the printed code), if any. */
  findByQr(qrId: string): PosRecord | undefined {
    const id = this.state.posByQr.get(qrId);
    return id === undefined ? undefined : this.state.pos.get(id);
  }

  /** platform-facts: the POS's one permanent static EMVCo payload (point of initiation 11, tag 43 naming its uuid). */
  staticQr(pos: PosRecord): string {
    const seller = this.state.sellers.get(pos.user_id);
    if (!seller) throw new Error(`POS ${pos.id} belongs to no seller`);
    return sellerQr(seller, { pointOfInitiation: 'static', qrId: pos.uuid });
  }

  /** platform-facts: the POS answer; `base` is the sandbox's own origin, so the qr links are absolute. */
  render(pos: PosRecord, base: string): Body {
    const store = this.state.stores.get(pos.store_id);
    const paths = qrPaths(pos.uuid);
    return {
      id: Number(pos.id),
      name: pos.name,
      fixed_amount: pos.fixed_amount,
      ...(pos.category !== undefined ? { category: pos.category } : {}),
      store_id: pos.store_id,
      ...(store?.external_id !== undefined ? { external_store_id: store.external_id } : {}),
      external_id: pos.external_id,
      user_id: Number(pos.user_id),
      status: 'active',
      uuid: pos.uuid,
      ...(pos.url !== undefined ? { url: pos.url } : {}),
      date_created: isoTimestamp(pos.date_created),
      date_last_updated: isoTimestamp(pos.date_last_updated),
      qr: { image: base + paths.image, template_document: base + paths.template_document, template_image: base + paths.template_image },
    };
  }

  /**
   * Data files from before issue 16 kept each seller's POS in the seller record: they become a default store and POS
   * records with the same external ids and QR ids, so orders and printed QRs keep working after the upgrade.
   */
  migrateLegacy(defaultStore: (seller: SellerRecord) => StoreRecord): void {
    for (const seller of [...this.state.sellers.values()]) {
      if (!seller.pos) continue;
      const legacy = seller.pos;
      this.state.transaction(() => {
        if (legacy.length > 0) {
          const store = defaultStore(seller);
          for (const p of legacy) if (!this.state.posOf(seller.user_id, p.external_pos_id)) this.createDefault(seller.user_id, store, p.external_pos_id, p.qr_id);
        }
        delete seller.pos;
        this.state.sellers.put(seller.user_id, seller);
      });
    }
  }

  #put(userId: string, fields: Omit<PosRecord, 'id' | 'user_id' | 'date_created' | 'date_last_updated' | 'category' | 'url'> & { category: number | undefined; url: string | undefined }): PosRecord {
    const now = this.clock.now();
    const { category, url, ...rest } = fields;
    const pos: PosRecord = { id: this.ids.unusedDigits(8, this.state.pos), user_id: userId, ...rest, date_created: now, date_last_updated: now };
    setOptional(pos, 'category', category);
    setOptional(pos, 'url', url);
    this.state.pos.put(pos.id, pos);
    this.state.indexPos(pos);
    return pos;
  }

  /**
   * The store named by store_id and/or external_store_id (platform-facts: both given must agree). On create one is
   * required; on update neither may be given (null: the store stays).
   */
  #store(userId: string, storeId: unknown, externalStoreId: unknown, required: boolean): StoreRecord | null {
    let byId: StoreRecord | undefined;
    let byExternal: StoreRecord | undefined;
    if (storeId !== undefined) {
      const text = typeof storeId === 'number' && Number.isSafeInteger(storeId) ? String(storeId) : storeId;
      if (typeof text !== 'string' || !NUMERIC_ID.test(text)) throw new StoresPosError('INVALID_STORE_ID', 'store_id must be a numeric store id.');
      byId = this.state.stores.get(text);
      if (!byId || byId.user_id !== userId) throw new StoresPosError('INVALID_STORE_ID', `No store ${text} of this seller.`);
    }
    if (externalStoreId !== undefined) {
      if (typeof externalStoreId !== 'string' || externalStoreId === '') throw new StoresPosError('INVALID_EXTERNAL_STORE_ID');
      byExternal = this.stores.findByExternalId(userId, externalStoreId);
      if (!byExternal) throw new StoresPosError('INEXISTENT_EXTERNAL_STORE_ID', `No store of this seller has external_id ${externalStoreId.slice(0, 64)}.`);
    }
    if (byId && byExternal && byId.id !== byExternal.id) throw new StoresPosError('EXTERNAL_STORE_ID_NOT_MATCH');
    const store = byId ?? byExternal;
    if (!store && required) throw new StoresPosError('INVALID_STORE_ID', 'store_id or external_store_id is required: a POS lives in a store.');
    return store ?? null;
  }

  #externalId(userId: string, value: unknown, selfId: string | null): string {
    if (typeof value !== 'string' || !ALNUM.test(value)) throw new StoresPosError('INVALID_EXTERNAL_ID');
    if (value.length >= EXTERNAL_ID_LIMIT) throw new StoresPosError('EXTERNAL_ID_TOO_LONG');
    const other = this.state.posOf(userId, value);
    if (other && other.id !== selfId) throw new StoresPosError('conflict', `Point of sale ${other.id} already has external_id ${value}.`);
    return value;
  }
}

function posName(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw new StoresPosError('INVALID_NAME');
  if (value.length >= NAME_LIMIT) throw new StoresPosError('NAME_TOO_LONG');
  return value;
}

function fixedAmountOf(value: unknown): boolean {
  if (typeof value !== 'boolean') throw new StoresPosError('INVALID_FIXED_AMOUNT');
  return value;
}

function categoryOf(seller: SellerRecord, value: unknown): number {
  const number = typeof value === 'string' && /^[0-9]{1,9}$/.test(value) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isSafeInteger(number) || number < 0) throw new StoresPosError('INVALID_CATEGORY');
  if (!SITE_MCCS[seller.country_code]?.has(number)) throw new StoresPosError('UNKNOWN_MCC', `category ${number} is not an MCC of site ${seller.country_code}.`);
  return number;
}

function urlOf(value: unknown, fixedAmount: boolean): string {
  if (typeof value !== 'string' || !URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol)) throw new StoresPosError('INVALID_URL');
  if (value.length > URL_MAX) throw new StoresPosError('URL_TOO_LONG');
  if (!fixedAmount) throw new StoresPosError('FIXED_AMOUNT_FALSE');
  return value;
}

function setOptional<K extends 'category' | 'url'>(pos: PosRecord, key: K, value: PosRecord[K] | undefined): void {
  if (value === undefined) delete pos[key];
  else pos[key] = value;
}

import { applyPatch } from '../settings/kiosk-settings.ts';
import { NotConnectedError, PlatformCallError, PlatformNetworkError, ReconnectNeededError } from '../platform/errors.ts';
import type { NewStore, PlatformPos, PlatformStore } from '../platform/stores-client.ts';
import type { PosCheckResult } from '../platform/pos-check.ts';
import { ok, type Failure } from './guards.ts';
import { kioskSettingsView } from './settings.ts';
import type { CoreServices } from './services.ts';
import type { KioskApi } from '../../../shared/kiosk-api.ts';
import { kioskError } from '../../../shared/kiosk-errors.ts';
import {
  DEFAULT_POS_CATEGORY,
  proposeExternalId,
  validPosExternalId,
  type Readiness,
  type ReadinessCode,
  type ReadinessProblem,
  type SetupPointOfSale,
  type SetupStep,
  type SetupStore,
} from '../../../shared/setup-api.ts';

type SetupApi = Pick<KioskApi, 'listStores' | 'createStore' | 'listPointsOfSale' | 'createPointOfSale' | 'choosePointOfSale' | 'getCounterQr' | 'getReadiness'>;

/**
 * Live store setup (issue 16; the contract and its failures: shared/setup-api.ts): the seller's stores and points of
 * sale on the platform, the POS this kiosk charges on, its printed QR, and whether the kiosk is ready to sell.
 */
export function setupApi(deps: CoreServices): SetupApi {
  const { guarded } = deps.guards;
  const { stores, posCheck, session, audit, launch, settingsKv, logger } = deps;

  const userId = (): string => {
    if (!session.userId) throw new NotConnectedError();
    return session.userId;
  };
  /** A live kiosk charges on the launch's default POS until a manager chooses one; training's is the training seller's. */
  const posChosen = () => deps.training !== null || settingsKv.get()?.posId !== undefined;

  return {
    listStores: guarded('listStores', { connected: true }, async () => ok((await stores.listStores(userId())).map(toSetupStore))),

    createStore: guarded('createStore', { pin: true, connected: true }, async (input) => {
      const seller = userId();
      const existing = await stores.listStores(seller);
      const { streetName, streetNumber, cityName, stateName, latitude, longitude, reference } = input.location;
      // A create whose answer was lost, tapped again: the store with this name and address is the one asked for.
      const same = existing.find((s) => s.name === input.name && s.location?.street_name === streetName && s.location?.street_number === streetNumber && s.location?.city_name === cityName);
      if (same) return ok(toSetupStore(same));
      const location: NewStore['location'] = {
        street_name: streetName,
        street_number: streetNumber,
        city_name: cityName,
        state_name: stateName,
        latitude,
        longitude,
        ...(reference !== undefined ? { reference } : {}),
      };
      const taken = existing.flatMap((s) => (s.external_id ? [s.external_id] : []));
      // platform-facts: a repeated external_id is refused (409): another kiosk took it meanwhile; the next one is free.
      for (let attempt = 1; ; attempt += 1) {
        const externalId = proposeExternalId('SUC', taken);
        try {
          const store = await stores.createStore(seller, { name: input.name, external_id: externalId, location });
          audit.append({ actor: 'manager', action: 'setup.store_created', subject: store.id, detail: { externalId } });
          return ok(toSetupStore(store));
        } catch (error) {
          if (!(isAnswer(error) && error.status === 409 && attempt < 3)) return refused(error, 'store');
          taken.push(externalId);
        }
      }
    }),

    listPointsOfSale: guarded('listPointsOfSale', { connected: true }, async (input) => {
      let all: PlatformPos[];
      try {
        // The store must be the seller's (store_not_found otherwise); every POS of the seller, for a unique proposal.
        [, all] = await Promise.all([stores.getStore(input.storeId), stores.listPos()]);
      } catch (error) {
        return refused(error, 'store');
      }
      return ok({
        pointsOfSale: all.filter((p) => p.store_id === input.storeId).map(toSetupPos),
        proposedExternalId: proposeExternalId('CAJA', all.map((p) => p.external_id)),
      });
    }),

    createPointOfSale: guarded('createPointOfSale', { pin: true, connected: true }, async (input) => {
      const given = input.externalId === undefined ? '' : validPosExternalId(input.externalId);
      const all = await stores.listPos();
      // A create whose answer was lost, tapped again: this store's POS with this name (and the id given) is the one.
      const same = all.find((p) => p.store_id === input.storeId && p.name === input.name && (given === '' || p.external_id === given));
      if (same) return ok(toSetupPos(same));
      if (given !== '' && all.some((p) => p.external_id === given)) return { ok: false, error: kioskError('pos_id_taken', `Another point of sale of this account already has the id ${given}.`) };
      const taken = all.map((p) => p.external_id);
      for (let attempt = 1; ; attempt += 1) {
        const externalId = given || proposeExternalId('CAJA', taken);
        try {
          const pos = await stores.createPos({ name: input.name, fixed_amount: false, store_id: Number(input.storeId), external_id: externalId, category: input.category ?? DEFAULT_POS_CATEGORY });
          audit.append({ actor: 'manager', action: 'setup.pos_created', subject: pos.id, detail: { externalId, storeId: pos.store_id } });
          return ok(toSetupPos(pos));
        } catch (error) {
          // An id the kiosk proposed and another kiosk took meanwhile: the next one; an id the manager gave: theirs to change.
          if (!(given === '' && isAnswer(error) && error.status === 409 && attempt < 3)) return refused(error, 'pos');
          taken.push(externalId);
        }
      }
    }),

    choosePointOfSale: guarded('choosePointOfSale', { pin: true, connected: true }, async (input) => {
      let pos: PlatformPos;
      try {
        pos = await stores.getPos(input.id);
      } catch (error) {
        return refused(error, 'pos');
      }
      const store = await stores.getStore(pos.store_id).catch((error: unknown) => {
        if (!isAnswer(error)) throw error;
        logger.warn('the chosen point of sale names a store the platform does not show', { store: pos.store_id, status: error.status });
        return null;
      });
      // The receipts' store name (settings: 1 to 64 characters); a store that cannot be read leaves the name as it was.
      const storeName = store?.name.trim().slice(0, 64) || undefined;
      settingsKv.set(applyPatch(settingsKv.get() ?? {}, { posId: pos.external_id, ...(storeName ? { storeName } : {}) }, launch));
      posCheck.record(pos.external_id, pos);
      audit.append({ actor: 'manager', action: 'setup.pos_chosen', subject: pos.id, detail: { posId: pos.external_id, storeId: pos.store_id } });
      deps.emit({ type: 'session.changed', session: deps.sessionState() });
      return ok(kioskSettingsView(deps));
    }),

    getCounterQr: guarded('getCounterQr', { connected: true }, async () => {
      if (!posChosen()) return { ok: false, error: kioskError('pos_not_chosen') };
      const posId = deps.settings().posId;
      const pos = await stores.findPos(posId);
      posCheck.record(posId, pos);
      if (!pos) return { ok: false, error: kioskError('pos_missing', `The platform has no point of sale ${posId}; a manager must choose or create one.`) };
      if (!pos.qr?.image) return { ok: false, error: kioskError('qr_unavailable', 'The platform gives no QR image for this point of sale.') };
      let png: Buffer;
      try {
        png = await stores.fetchQrFile(pos.qr.image, 'png');
      } catch (error) {
        if (error instanceof PlatformNetworkError || !isAnswer(error)) throw error;
        return { ok: false, error: kioskError('qr_unavailable') };
      }
      // The template is a nicety (A4 through the print dialog): without it the 80 mm print of the image remains.
      const pdf = pos.qr.template_document ? await stores.fetchQrFile(pos.qr.template_document, 'pdf').catch(() => null) : null;
      const store = await stores.getStore(pos.store_id).catch(() => null);
      return ok({
        posId,
        posName: pos.name,
        storeName: store?.name ?? null,
        image: `data:image/png;base64,${png.toString('base64')}`,
        template: pdf ? { mediaType: 'application/pdf' as const, base64: pdf.toString('base64') } : null,
      });
    }),

    getReadiness: guarded('getReadiness', {}, async () => {
      const s = deps.settings();
      const account = session.state === 'connected' ? 'connected' : session.state === 'reconnect_needed' ? 'reconnect_needed' : 'missing';
      let check: PosCheckResult | null = null;
      if (posChosen() && account === 'connected') check = await posCheck.check(s.posId, () => stores.findPos(s.posId, { quick: true }));
      const pointOfSale: Readiness['pointOfSale'] = !posChosen() ? 'not_set' : (check?.state ?? 'unchecked');
      const relay = deps.connectivity().relay;
      const realtime: Readiness['realtime'] = relay === 'live' ? 'live' : relay === 'polling' ? 'polling' : 'not_set';
      const pinSet = deps.pin.isSet();
      const problems: ReadinessProblem[] = [];
      const add = (code: ReadinessCode, step: SetupStep, blocking: boolean) => problems.push({ code, step, blocking });
      if (account === 'missing') add('account_missing', 'account', true);
      if (account === 'reconnect_needed') add('account_reconnect', 'account', true);
      if (s.countryCode === null) add('country_missing', 'country', true);
      if (pointOfSale === 'not_set') add('pos_not_set', 'pos', true);
      if (pointOfSale === 'not_found') add('pos_not_found', 'pos', true);
      // Unchecked for want of an account is the account's problem, said once.
      if (pointOfSale === 'unchecked' && account === 'connected') add('pos_unchecked', 'pos', false);
      if (realtime === 'not_set') add('relay_not_set', 'realtime', false);
      if (realtime === 'polling') add('relay_polling', 'realtime', false);
      if (!pinSet) add('pin_not_set', 'pin', true);
      const pos = check?.state === 'found' && check.pos ? { externalId: check.pos.external_id, name: check.pos.name, storeId: check.pos.store_id } : null;
      const checkedAt = (check ?? (posChosen() ? posCheck.last(s.posId) : null))?.checkedAt;
      return ok({
        ready: !problems.some((p) => p.blocking),
        training: deps.training !== null,
        account,
        pointOfSale,
        pos,
        realtime,
        pinSet,
        posCheckedAt: checkedAt === undefined ? null : new Date(checkedAt).toISOString(),
        problems,
      });
    }),
  };
}

/** A platform answer (not "no answer", not the session's own errors): what the setup maps to its codes. */
function isAnswer(error: unknown): error is PlatformCallError {
  return error instanceof PlatformCallError && !(error instanceof PlatformNetworkError || error instanceof ReconnectNeededError || error instanceof NotConnectedError) && error.status >= 400;
}

/** platform-facts "POS errors" (and the sandbox's store codes) by the field of this contract they refuse. */
const FIELD_OF_CODE: Readonly<Record<string, string>> = {
  INVALID_NAME: 'name',
  NAME_TOO_LONG: 'name',
  INVALID_LOCATION: 'location',
  INVALID_CATEGORY: 'category',
  UNKNOWN_MCC: 'category',
  INVALID_EXTERNAL_ID: 'externalId',
  EXTERNAL_ID_TOO_LONG: 'externalId',
};
/** Codes of a POS create that mean its store is not the seller's. */
const STORE_CODES = new Set(['INVALID_STORE_ID', 'INVALID_EXTERNAL_STORE_ID', 'EXTERNAL_STORE_ID_NOT_MATCH', 'INEXISTENT_EXTERNAL_STORE_ID']);

/**
 * A setup call's failure in the kiosk's codes (issue 16: clear codes, never the platform's raw text): 404 is the store
 * or POS gone, 409 an external id taken, 400 a refused field (named in details). Anything else (no answer, the
 * session, 403, 5xx) is thrown on to the guards, which give it its usual code.
 */
function refused(error: unknown, what: 'store' | 'pos'): Failure {
  if (!isAnswer(error)) throw error;
  const raw = error.rawCode ?? error.code;
  if (error.status === 404) return { ok: false, error: what === 'store' ? kioskError('store_not_found') : kioskError('pos_missing') };
  if (error.status === 409 && what === 'pos') return { ok: false, error: kioskError('pos_id_taken') };
  if (error.status === 400 && what === 'pos' && STORE_CODES.has(raw)) return { ok: false, error: kioskError('store_not_found') };
  if (error.status === 400 || error.status === 409) {
    const field = Object.hasOwn(FIELD_OF_CODE, raw) ? FIELD_OF_CODE[raw] : undefined;
    const code = what === 'store' ? 'store_invalid' : 'pos_invalid';
    const subject = what === 'store' ? 'store' : 'point of sale';
    return { ok: false, error: kioskError(code, field ? `The platform refused the ${subject}'s ${field}.` : undefined, field ? { details: [field] } : {}) };
  }
  throw error;
}

function toSetupStore(store: PlatformStore): SetupStore {
  const l = store.location;
  const address = l?.address_line || [[l?.street_name, l?.street_number].filter(Boolean).join(' '), l?.city_name, l?.state_name].filter(Boolean).join(', ');
  return { id: store.id, name: store.name, externalId: store.external_id ?? null, address };
}

function toSetupPos(pos: PlatformPos): SetupPointOfSale {
  return { id: pos.id, name: pos.name, externalId: pos.external_id, storeId: pos.store_id, category: pos.category ?? null };
}

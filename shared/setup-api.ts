import { z } from 'zod';
import { managerPin as pin, printableText as printable } from './schemas/common.ts';
import type { KioskErrorCode } from './kiosk-errors.ts';
import type { KioskSettings } from './kiosk-api.ts';

// issue 16 "Live store setup": the part of the KioskApi contract (./kiosk-api.ts spreads it into kioskInputs and
// KioskOutputs) that the setup assistant and the Sale screen's readiness check use. A QR order hangs off a point of
// sale (POS, "caja") inside a store ("sucursal") that must exist on the platform first (platform-facts "Stores and
// points of sale"); these methods list, create and choose them, fetch the counter's printed QR, and say whether the
// kiosk is ready to sell. They work the same in training (the embedded sandbox's seller has a default store and POS).
//
// Failures are KioskErrors (./kiosk-errors.ts): the platform's answers become the kiosk's codes (store_invalid,
// pos_invalid, pos_id_taken, store_not_found, pos_missing, ...), never its raw text; `details` then names the field
// the platform refused, as this contract names it (`name`, `location`, `category`, `externalId`, `storeId`). No
// answer from the platform is network_error (retryable); no account is not_connected or reconnect_needed.
// setupStepFor(code) says which step of the assistant fixes a failure.

/** The assistant's steps, in order (issue 16 "What it must do"); the UI resumes at the first one not done. */
export const SETUP_STEPS = ['account', 'country', 'store', 'pos', 'realtime', 'pin', 'test_charge'] as const;
export type SetupStep = (typeof SETUP_STEPS)[number];

/** platform-facts: the MCC the kiosk gives a POS unless told otherwise (retail). */
export const DEFAULT_POS_CATEGORY = 621102;
// The POS external id's rule lives in a zod-free module the renderer can import (./setup-names.ts).
export { POS_EXTERNAL_ID_MAX, validPosExternalId } from './setup-names.ts';

/** The first of PREFIX1, PREFIX2, … that is not `taken` (compared without case): CAJA1 for a POS, SUC1 for a store. */
export function proposeExternalId(prefix: 'CAJA' | 'SUC', taken: Iterable<string>): string {
  const used = new Set([...taken].map((id) => id.toUpperCase()));
  for (let n = 1; ; n += 1) if (!used.has(`${prefix}${n}`)) return `${prefix}${n}`;
}

/** A store (sucursal) of the connected seller. */
export interface SetupStore {
  /** The platform's id (numeric text): what listPointsOfSale and createPointOfSale take as storeId. */
  id: string;
  name: string;
  /** The seller's own id for it (the kiosk proposes SUC1, SUC2… for the stores it creates); null when it has none. */
  externalId: string | null;
  /** One line: street and number, city, state. */
  address: string;
}

/** A point of sale (caja) of a store. */
export interface SetupPointOfSale {
  /** The platform's id (numeric text): what choosePointOfSale takes. */
  id: string;
  name: string;
  /** What orders name (config.qr.external_pos_id) and KioskSettings.posId holds once it is chosen. */
  externalId: string;
  storeId: string;
  /** The MCC, when the platform has one. */
  category: number | null;
}

/** The counter's printed QR (issue 16 "The counter's QR"): the chosen POS's static QR, fetched by the core. */
export interface CounterQr {
  /** The POS's external id (KioskSettings.posId). */
  posId: string;
  posName: string;
  /** The store's name on the platform; null when the store could not be read. */
  storeName: string | null;
  /**
   * The static QR as `data:image/png;base64,…`: the core fetched it with the kiosk's token, so the renderer needs
   * neither the token nor a remote image (its CSP allows img-src 'self' data: only).
   */
  image: string;
  /**
   * The platform's printable template (A4: the QR with the store and POS names) as base64 of its PDF bytes, for the
   * system print dialog; null when the platform gives none or it could not be fetched (print `image` at 80 mm then).
   */
  template: { mediaType: 'application/pdf'; base64: string } | null;
}

/** The reasons a kiosk is not (fully) ready, each a stable code the UI words, with the step that fixes it. */
export const READINESS_CODES = [
  // Blocking: no charge can work until a manager fixes it.
  'account_missing',
  'account_reconnect',
  'country_missing',
  'pos_not_set',
  'pos_not_found',
  'pin_not_set',
  // Not blocking: the kiosk sells, but says so plainly.
  'pos_unchecked',
  'relay_not_set',
  'relay_polling',
] as const;
export type ReadinessCode = (typeof READINESS_CODES)[number];

export interface ReadinessProblem {
  code: ReadinessCode;
  /** The assistant's step that fixes it. */
  step: SetupStep;
  /** True when charges cannot work until it is fixed; false for what only lowers the service (polling, unchecked). */
  blocking: boolean;
}

/** The "ready to sell" check (issue 16 "Readiness"). */
export interface Readiness {
  /** No blocking problem. */
  ready: boolean;
  training: boolean;
  account: 'connected' | 'missing' | 'reconnect_needed';
  /**
   * found: the chosen POS exists on the platform; not_set: no POS was chosen (live mode); not_found: the platform has
   * no POS with that external id; unchecked: the platform could not be asked (no answer, or no account).
   */
  pointOfSale: 'found' | 'not_set' | 'not_found' | 'unchecked';
  /** The chosen POS as the platform last described it; null unless found. */
  pos: { externalId: string; name: string; storeId: string } | null;
  /** live: the relay streams; polling: a relay is set but down, the kiosk asks the platform instead; not_set: no relay. */
  realtime: 'live' | 'polling' | 'not_set';
  pinSet: boolean;
  /**
   * When the platform was last asked about the POS (ISO 8601), null when never: the answer is kept for a short while
   * (a minute; ten seconds when it could not be asked) so screens can ask on every render.
   */
  posCheckedAt: string | null;
  /** Every problem, in the assistant's order; empty when all is well. */
  problems: ReadinessProblem[];
}

const numericId = z.string().regex(/^[0-9]{1,15}$/, 'a platform id is numeric');

export const setupInputs = {
  /** The connected seller's stores (at most 1000). Needs a connected account. */
  listStores: z.strictObject({}),
  /**
   * Creates a store (platform-facts: it needs a real location). The kiosk gives it an external id of its own (SUC1,
   * SUC2…, the first free one). Fails with store_invalid (details: the field) when the platform refuses a value.
   */
  createStore: z.strictObject({
    pin,
    name: printable(100),
    location: z.strictObject({
      streetName: printable(100),
      streetNumber: printable(20),
      cityName: printable(100),
      stateName: printable(100),
      latitude: z.number().min(-90).max(90),
      longitude: z.number().min(-180).max(180),
      reference: printable(200).optional(),
    }),
  }),
  /**
   * The POS of one store, and the external id the kiosk would give a new one (`proposedExternalId`: CAJA1, CAJA2…,
   * unique among all the seller's POS). store_not_found when the seller has no such store.
   */
  listPointsOfSale: z.strictObject({ storeId: numericId }),
  /**
   * Creates a POS in a store. `externalId` is made valid (validPosExternalId); absent or empty once made valid, the
   * kiosk proposes one (CAJA1, CAJA2…). `category` defaults to DEFAULT_POS_CATEGORY (retail). Fails with
   * pos_id_taken when another POS of the seller has the external id given, store_not_found, or pos_invalid
   * (details: the field). It does not choose the new POS: choosePointOfSale does.
   */
  createPointOfSale: z.strictObject({
    pin,
    storeId: numericId,
    name: printable(44),
    externalId: printable(64).optional(),
    category: z.number().int().min(1).max(99_999_999).optional(),
  }),
  /**
   * Makes the POS with this platform id (SetupPointOfSale.id) the one this kiosk charges on: KioskSettings.posId
   * becomes its external id and storeName its store's name, after the platform confirmed it exists (pos_missing
   * otherwise). A session.changed event follows.
   */
  choosePointOfSale: z.strictObject({ pin, id: numericId }),
  /**
   * The chosen POS's static QR to show and print, with its store and POS names. pos_not_chosen when no POS was
   * chosen (live mode), pos_missing when the platform has no such POS, qr_unavailable when its image cannot be had.
   */
  getCounterQr: z.strictObject({}),
  /** The "ready to sell" check; never fails for a platform problem (it is one of the answer's problems). */
  getReadiness: z.strictObject({}),
} as const;

export interface SetupOutputs {
  listStores: SetupStore[];
  createStore: SetupStore;
  listPointsOfSale: { pointsOfSale: SetupPointOfSale[]; proposedExternalId: string };
  createPointOfSale: SetupPointOfSale;
  choosePointOfSale: KioskSettings;
  getCounterQr: CounterQr;
  getReadiness: Readiness;
}

/**
 * The assistant's step that fixes a failure with this code, or null when no step does (try again, call support).
 * E.g. a charge refused because its POS is gone (pos_missing) opens the POS step.
 */
export function setupStepFor(code: KioskErrorCode): SetupStep | null {
  return Object.hasOwn(STEP_OF_ERROR, code) ? (STEP_OF_ERROR[code] as SetupStep) : null;
}

const STEP_OF_ERROR: Partial<Record<KioskErrorCode, SetupStep>> = {
  not_connected: 'account',
  reconnect_needed: 'account',
  invalid_client: 'account',
  no_country: 'country',
  store_not_found: 'store',
  store_invalid: 'store',
  pos_missing: 'pos',
  pos_not_chosen: 'pos',
  pos_invalid: 'pos',
  pos_id_taken: 'pos',
  pos_not_found: 'pos',
  pin_not_set: 'pin',
};

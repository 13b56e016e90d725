import type { Clock } from '../clock.ts';
import type { IdGenerator } from '../ids.ts';
import type { SandboxState, SellerRecord, StoreLocation, StoreRecord } from '../state.ts';
import type { StoreService } from './stores.ts';
import type { PosService } from './pos.ts';
import { ApiError } from './errors.ts';
import { COUNTRY_CURRENCY, isSupportedCountry } from '../../shared/schemas/common.ts';
import { buildMerchantQr } from '../../shared/emv-qr.ts';
import { buildMerchantQrFast } from './merchant-qr-template.ts';
import type { Seller } from '../../shared/schemas/sandbox-control.ts';

const CITY: Record<string, string> = { AR: 'CABA', BR: 'Sao Paulo', CL: 'Santiago', UY: 'Montevideo' };
/** Where a control-API seller's default store is (platform-facts: a store needs a real location): each capital's centre. */
const DEFAULT_LOCATION: Record<string, Omit<StoreLocation, 'street_number' | 'street_name'>> = {
  AR: { city_name: 'CABA', state_name: 'Capital Federal', latitude: -34.6037, longitude: -58.3816 },
  BR: { city_name: 'Sao Paulo', state_name: 'SP', latitude: -23.5505, longitude: -46.6333 },
  CL: { city_name: 'Santiago', state_name: 'Region Metropolitana', latitude: -33.4489, longitude: -70.6693 },
  UY: { city_name: 'Montevideo', state_name: 'Montevideo', latitude: -34.9011, longitude: -56.1645 },
};

/**
 * The seller's EMVCo merchant QR (platform-facts "QR data"): static for the counter's printed QR (seed 4.3), dynamic for
 * one order, whose id goes in the reference label so the payer page can resolve it.
 */
export function sellerQr(seller: SellerRecord, qr: { pointOfInitiation: 'static' | 'dynamic'; qrId: string; reference?: string }): string {
  const currency = seller.currency ?? 'ARS';
  const merchantCity = CITY[seller.country_code] ?? 'City';
  const { pointOfInitiation, qrId, reference } = qr;
  const { country_code: countryCode, name: merchantName } = seller;
  // Every order's QR carries a reference; the template builder gives the same payload as buildMerchantQr, faster.
  if (reference === undefined) return buildMerchantQr({ pointOfInitiation, qrId, currency, countryCode, merchantName, merchantCity });
  return buildMerchantQrFast({ pointOfInitiation, qrId, reference, currency, countryCode, merchantName, merchantCity });
}

/** Sellers and their application credentials, as the platform's developer dashboard would make them. */
export class SellerService {
  constructor(
    private readonly state: SandboxState,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly stores: StoreService,
    private readonly posService: PosService,
  ) {}

  create(input: { country_code: string; pos?: string[]; name?: string }): Seller {
    const posIds = input.pos && input.pos.length > 0 ? input.pos : ['POS001'];
    if (new Set(posIds).size !== posIds.length) throw new ApiError('property_value', ['pos'], 'POS ids must be unique.');
    const userId = this.ids.digits(9);
    const currency = isSupportedCountry(input.country_code) ? COUNTRY_CURRENCY[input.country_code] : null;
    const seller: SellerRecord = {
      user_id: userId,
      country_code: input.country_code,
      currency,
      name: input.name ?? `Sandbox Store ${userId.slice(-4)}`,
      created_at: this.clock.now(),
    };
    const clientId = this.ids.digits(16);
    const app = {
      client_id: clientId,
      client_secret: this.ids.alnum(32),
      owner_user_id: userId,
      public_key: `TEST-${this.ids.uuid()}`,
    };
    // issue 16: training stays zero-config, so the seller comes with a default store and its POS, real records that
    // the Stores and POS API lists, edits and deletes like any other.
    const pos = this.state.transaction(() => {
      this.state.sellers.put(userId, seller);
      this.state.applications.put(clientId, app);
      const store = this.defaultStore(seller);
      return posIds.map((externalId) => this.posService.createDefault(userId, store, externalId));
    });
    return {
      user_id: userId,
      country_code: seller.country_code,
      currency,
      client_id: app.client_id,
      client_secret: app.client_secret,
      public_key: app.public_key,
      pos: pos.map((p) => ({ external_pos_id: p.external_id, ...(currency ? { qr_data: this.staticQr(seller, p.uuid) } : {}) })),
    };
  }

  /** The store a control-API seller gets (and a data file from before issue 16 gets for its POS). */
  defaultStore(seller: SellerRecord): StoreRecord {
    const place = DEFAULT_LOCATION[seller.country_code] ?? { city_name: 'City', state_name: 'State', latitude: 0, longitude: 0 };
    return this.stores.createDefault(seller.user_id, seller.name, { street_name: 'Avenida Sandbox', street_number: '100', ...place });
  }

  /** The counter's printed QR (static mode, seed 4.3): point of initiation 11, tied to the POS. */
  staticQr(seller: SellerRecord, qrId: string): string {
    return sellerQr(seller, { pointOfInitiation: 'static', qrId });
  }
}

import type { SandboxClock } from './clock.ts';
import type { IdGenerator } from './ids.ts';
import type { SandboxState } from './state.ts';
import type { OAuthService } from './domain/oauth.ts';
import type { OrderService } from './domain/orders.ts';
import type { IdempotencyStore } from './domain/idempotency.ts';
import type { Notifier } from './domain/notifier.ts';
import type { LegacyPayments } from './domain/legacy-payments.ts';
import type { LegacyLookups } from './domain/legacy-lookups.ts';
import type { SellerService } from './domain/sellers.ts';
import type { StoreService } from './domain/stores.ts';
import type { PosService } from './domain/pos.ts';
import type { FaultTable } from './http/faults.ts';
import type { ControlHosts } from './http/control-hosts.ts';
import type { MerchantKey } from './wallet/merchant-key.ts';
import type { ProfileSetting } from './profile.ts';

/**
 * What every route file is given: the sandbox's services, built by buildSandbox (app.ts). It lives apart from the
 * composition root so the routes depend on this type, never on app.ts (issue 13: no import cycle app ↔ routes).
 */
export interface SandboxContext {
  clock: SandboxClock;
  state: SandboxState;
  ids: IdGenerator;
  oauth: OAuthService;
  orders: OrderService;
  idempotency: IdempotencyStore;
  notifier: Notifier;
  legacy: LegacyPayments;
  legacyLookups: LegacyLookups;
  sellers: SellerService;
  stores: StoreService;
  pos: PosService;
  faults: FaultTable;
  merchantKey: MerchantKey;
  controlHosts: ControlHosts;
  /** issue 26: the profile the sandbox answers in (sandbox/profile.ts). */
  profile: ProfileSetting;
  sweep(): Promise<void>;
}

import type Database from 'better-sqlite3';
import type { Clock, Logger, OrdersPort, ReceiptPrinter, TokenVault, TrainingPort } from '../ports.ts';
import type { OrdersRepo } from '../store/orders-repo.ts';
import type { PlatformAnswerJournal } from '../platform/answer-journal.ts';
import type { SaleLinesRepo } from '../store/sale-lines-repo.ts';
import type { RecoveredSales } from '../orders/recovered-sales.ts';
import type { OperationsRepo } from '../store/operations-repo.ts';
import type { KeyValue } from '../store/settings-repo.ts';
import type { AuditLog } from '../store/audit-log.ts';
import type { Outbox } from '../outbox/outbox.ts';
import type { Catalog } from '../catalog/catalog-service.ts';
import type { LiveStatus } from '../live/live-status.ts';
import type { PlatformSession } from '../platform/session.ts';
import type { StoresClient } from '../platform/stores-client.ts';
import type { PepperedPin } from '../people/pin-pepper.ts';
import type { DayServices } from '../people/day-services.ts';
import type { EffectiveSettings, LaunchDefaults, StoredSettings } from '../settings/kiosk-settings.ts';
import type { Guards } from './guards.ts';
import type { PosCheck } from '../platform/pos-check.ts';
import type { Connectivity, KioskEvent, KioskOrder, SessionState } from '../../../shared/kiosk-api.ts';
import type { Order } from '../../../shared/schemas/order.ts';

/**
 * The services the KioskApi's area modules share (issue 13 "Core services, each small"): built once by
 * compose (compose.ts), then handed to each module, which takes only what it uses.
 */
export interface CoreServices {
  /** issue 26: platform answers the kiosk could not fully read (redacted), for the support bundle. */
  platformAnswers?: PlatformAnswerJournal;
  platformUrl: string;
  vault: TokenVault;
  training: TrainingPort | null;
  launch: LaunchDefaults;
  openBrowser: ((url: string) => Promise<void>) | undefined;
  printer: ReceiptPrinter | undefined;
  clock: Clock;
  logger: Logger;
  /** The kiosk's database, for the few writes that span its repositories (the training reset). */
  db: Database.Database;
  audit: AuditLog;
  ordersRepo: OrdersRepo;
  /** issue 26: the sale's lines as rung up, when the platform was sent fewer. */
  saleLines: SaleLinesRepo;
  /** issue 27: orders crash recovery made, which the next charge resumes (same sale) or withdraws. */
  recoveredSales: RecoveredSales;
  ops: OperationsRepo;
  orders: OrdersPort;
  outbox: Outbox;
  live: LiveStatus;
  catalog: Catalog;
  session: PlatformSession;
  /** issue 16: the platform's Stores and POS API, and what the readiness check last learned of the chosen POS. */
  stores: StoresClient;
  posCheck: PosCheck;
  /** The manager PIN set at the first connection: since issue 17 the first manager's (people/people.ts). */
  pin: PepperedPin;
  /** issue 17: people, shifts, reports, and who sells now. */
  day: DayServices;
  settingsKv: KeyValue<StoredSettings>;
  /** The settings in force: what a manager stored over the launch's defaults. */
  settings(): EffectiveSettings;
  /** The relay key a manager saved (in the vault), as last read or written. */
  savedRelayKey(): string | null;
  setSavedRelayKey(key: string | null): void;
  /** Applies a changed relay URL or key at once (the old stream closes, the new one opens). */
  reconfigureRelay(): void;
  connectivity(): Connectivity;
  sessionState(): SessionState;
  emit(event: KioskEvent): void;
  /** Tells the screens an order changed (order.updated). */
  orderChanged(order: Order): void;
  orderView(order: Order): KioskOrder;
  guards: Guards;
}

import type Database from 'better-sqlite3';
import type { Clock } from '../ports.ts';
import { openKioskDatabase } from './database.ts';
import { OrdersRepo } from './orders-repo.ts';
import { OperationsRepo } from './operations-repo.ts';
import { SettingsRepo } from './settings-repo.ts';
import { AuditLog } from './audit-log.ts';

// issue 14 "cold start": the store on its own, apart from compose.ts (which imports the whole core), so that a launch
// can open the database, and show its address, before it loads the rest of the core (launch/start-kiosk.ts).

/** The kiosk's SQLite file and the repositories over it. */
export interface KioskStore {
  db: Database.Database;
  ordersRepo: OrdersRepo;
  ops: OperationsRepo;
  settingsRepo: SettingsRepo;
  audit: AuditLog;
}

/** Opens (creating or migrating) the kiosk's database; throws the store's errors (DamagedDatabaseError...) as they are. */
export function openKioskStore(file: string, clock: Clock): KioskStore {
  return kioskStoreOver(openKioskDatabase(file), clock);
}

/**
 * The repositories over a database already opened by openKioskDatabase (database.ts). issue 14 "cold start": a launch
 * opens the file with database.ts alone (it refuses a damaged file before the address is shown), and loads this
 * module, whose row checks bring zod and the schemas, afterwards (launch/start-kiosk.ts).
 */
export function kioskStoreOver(db: Database.Database, clock: Clock): KioskStore {
  return { db, ordersRepo: new OrdersRepo(db, clock), ops: new OperationsRepo(db, clock), settingsRepo: new SettingsRepo(db), audit: new AuditLog(db, clock) };
}

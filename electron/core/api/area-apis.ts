import type { KioskApi } from '../../../shared/kiosk-api.ts';
import type { CoreServices } from './services.ts';
import { connectionApi } from './connection.ts';
import { saleApi } from './sale.ts';
import { refundsApi } from './refunds.ts';
import { historyApi } from './history.ts';
import { settingsApi } from './settings.ts';
import { catalogApi } from './catalog.ts';
import { receiptsApi } from './receipts.ts';
import { setupApi } from './setup.ts';
import { dayApi } from './day.ts';
import { updatesApi } from './updates.ts';
import { tillApi } from './till.ts';

/**
 * issue 13 "Core services, each small": the KioskApi composed from the area modules, each method with its guards
 * declared once (guards.ts). saveDiagnostics (diagnostics.ts) is added by compose.ts beside them: it needs the
 * connectivity history and the core's secrets, which compose keeps.
 */
export function areaApis(services: CoreServices): Omit<KioskApi, 'saveDiagnostics'> {
  return {
    ...connectionApi(services),
    ...saleApi(services),
    ...refundsApi(services),
    ...historyApi(services),
    ...settingsApi(services),
    ...catalogApi(services),
    ...receiptsApi(services),
    ...setupApi(services),
    ...dayApi(services),
    ...updatesApi(services),
    ...tillApi(services),
  };
}

import { ok } from './guards.ts';
import type { CoreServices } from './services.ts';
import type { KioskApi } from '../../../shared/kiosk-api.ts';

type CatalogApi = Pick<KioskApi, 'listCatalog' | 'saveCatalogItem' | 'deleteCatalogItem' | 'importCatalog'>;

/** The product catalog (catalog/catalog-service.ts): prices are in the seller's currency, so every call needs a country. */
export function catalogApi(deps: Pick<CoreServices, 'guards' | 'catalog'>): CatalogApi {
  const { guarded } = deps.guards;
  const products = deps.catalog;
  return {
    listCatalog: guarded('listCatalog', { country: true }, async (_input, { currency }) => ok(products.list(currency))),
    saveCatalogItem: guarded('saveCatalogItem', { pin: true, country: true }, async (input, { currency }) => ok(products.save(input.item, currency, 'manager'))),
    deleteCatalogItem: guarded('deleteCatalogItem', { pin: true, country: true }, async (input) => {
      products.delete(input.id, 'manager');
      return ok({ deleted: true as const });
    }),
    importCatalog: guarded('importCatalog', { pin: true, country: true }, async (input, { currency }) => ok(products.import(input.csv, currency, 'manager'))),
  };
}

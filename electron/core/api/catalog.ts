import { ok } from './guards.ts';
import type { CoreServices } from './services.ts';
import type { KioskApi } from '../../../shared/kiosk-api.ts';

type CatalogApi = Pick<KioskApi, 'listCatalog' | 'saveCatalogItem' | 'deleteCatalogItem' | 'importCatalog' | 'listCategories' | 'saveCategory' | 'deleteCategory'>;

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
    // issue 29: categories have no price, so they need no country; changing them takes the manager PIN.
    listCategories: guarded('listCategories', {}, async () => ok(products.listCategories())),
    saveCategory: guarded('saveCategory', { pin: true }, async (input) => ok(products.saveCategory(input.category, 'manager'))),
    deleteCategory: guarded('deleteCategory', { pin: true }, async (input) => {
      products.deleteCategory(input.id, 'manager');
      return ok({ deleted: true as const });
    }),
  };
}

// A café's catalog for the Sale screen's browser tests: more products than one charge may hold (10 distinct lines, seed
// 4.3 items), with a custom unit or two in the store's language beside the platform's default "unit".
import assert from 'node:assert/strict';
import type { KioskBrowser } from './kiosk-browser.ts';

export interface TestProduct {
  title: string;
  unitPrice: string;
  unitMeasure?: string;
}

export const CAFE_PRODUCTS: readonly TestProduct[] = [
  { title: 'Café con leche', unitPrice: '1500.50' },
  { title: 'Medialuna de manteca', unitPrice: '450.00' },
  { title: 'Agua mineral sin gas 500 ml', unitPrice: '999.99', unitMeasure: 'botella' },
  { title: 'Tostado de jamón y queso', unitPrice: '3200.00' },
  { title: 'Jugo de naranja exprimido', unitPrice: '1800.00' },
  { title: 'Alfajor', unitPrice: '700.00' },
  { title: 'Torta del día', unitPrice: '2100.00', unitMeasure: 'porción' },
  { title: 'Té', unitPrice: '1100.00' },
  { title: 'Factura', unitPrice: '380.00' },
  { title: 'Sandwich de miga', unitPrice: '650.00' },
  { title: 'Gaseosa', unitPrice: '1300.00' },
  { title: 'Chocolate caliente', unitPrice: '1900.00' },
];

/**
 * Saves `products` through the core's API with the manager PIN `pin` (asserting each), then reloads the page and waits
 * for the Sale screen's catalog to show them.
 */
export async function seedCatalog(k: KioskBrowser, pin: string, products: readonly TestProduct[], wait = { timeout: 20_000 }): Promise<void> {
  for (const p of products) {
    const saved = await k.core.api.saveCatalogItem({ pin, item: { title: p.title, unitPrice: p.unitPrice, unitMeasure: p.unitMeasure ?? 'unit', externalCode: null } });
    assert.ok(saved.ok, `catalog item ${p.title} saved`);
  }
  await k.page.reload();
  await k.page.getByTestId('catalog').waitFor(wait);
}

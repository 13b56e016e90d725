import type { CatalogItem } from '../../../../shared/kiosk-api.ts';

/**
 * The catalog item a scanned code names (issue 29 "Scanner"): the one whose barcode it is, else the one whose
 * external_code it is (a shop that labelled its shelves with its own codes before barcodes were stored); null for a
 * code the catalog does not know. Both are unique in the catalog (catalog-repo.ts), so at most one item matches each.
 */
export function findScanned(catalog: readonly CatalogItem[], code: string): CatalogItem | null {
  return catalog.find((item) => item.barcode === code) ?? catalog.find((item) => item.externalCode === code) ?? null;
}

/** What a scan on the Sale screen did, for the message the cashier reads (sale.scan.*). */
export type ScanOutcome =
  | { kind: 'added'; title: string; quantity: number }
  | { kind: 'unknown' | 'amount_typed' | 'charge_on' | 'refused'; code: string; refusal?: string };

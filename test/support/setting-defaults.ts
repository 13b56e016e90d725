// What a kiosk ships with for the settings whose default does not come from the launch (shared/settings-table.ts),
// written out here, not read from the table, so the tests that expect the defaults check the table against it. The
// launch-dependent ones (POS id, language, relay URL, country) each test states itself.
export const FIXED_SETTING_DEFAULTS = {
  qrMode: 'dynamic',
  expiration: 'PT5M',
  storeName: null,
  printerName: null,
  soundOnPayment: true,
  updateFeedUrl: null,
  maintenanceWindow: '03:00-05:00',
  paymentDiscounts: [],
} as const;

// The contract's names as plain lists, with no zod: the renderer and the preload import these, and a zod import there
// would put the whole validator in the counter display's bundle (issue 5: the JS sent to the display is small).
// shared/kiosk-api.ts checks at compile time that KIOSK_METHOD_NAMES names exactly the contract's methods.

export const KIOSK_METHOD_NAMES = [
  'getSession',
  'connect',
  'disconnect',
  'createOrder',
  'getOrder',
  'cancelOrder',
  'refundOrder',
  'listOrders',
  'listOrdersPage',
  'listOutbox',
  'retryOutboxItem',
  'dropOutboxItem',
  'getSettings',
  'getConnectivity',
  'updateSettings',
  'listCatalog',
  'saveCatalogItem',
  'deleteCatalogItem',
  'importCatalog',
  // issue 29: the catalog's categories.
  'listCategories',
  'saveCategory',
  'deleteCategory',
  'printReceipt',
  'listPrinters',
  'setPin',
  'verifyPin',
  'simulatePayment',
  'resetTraining',
  // issue 16: live store setup (shared/setup-api.ts).
  'listStores',
  'createStore',
  'listPointsOfSale',
  'createPointOfSale',
  'choosePointOfSale',
  'getCounterQr',
  'getReadiness',
  // issue 17: people, shifts, the Z report and the CSV export (shared/day-api.ts).
  'listPeople',
  'addPerson',
  'updatePerson',
  'removePerson',
  'signIn',
  'signOut',
  'currentCashier',
  'getDaySettings',
  'updateDaySettings',
  'openShift',
  'closeShift',
  'currentShift',
  'listShifts',
  'previewReport',
  'closeReport',
  'listReports',
  'getReport',
  'exportOrdersCsv',
  'checkDay',
  'applyPlatformState',
  // issue 18: the support bundle (shared/support-api.ts).
  'saveDiagnostics',
  // issue 18: software updates (shared/update-api.ts).
  'getUpdateState',
  'updateNow',
  // issue 29: shared/till-api.ts.
  'recordCashSale',
  'getCashSale',
  'listCashSales',
  'refundCashSale',
  'returnSplitCash',
  'currentTill',
  'getTill',
  'payIn',
  'payOut',
] as const;

const METHOD_NAMES: ReadonlySet<string> = new Set<string>(KIOSK_METHOD_NAMES);

/** Whether `method` is one of the contract's methods (the web shell's 404 and the dispatcher's check; no zod here). */
export function isKioskMethod(method: string): method is (typeof KIOSK_METHOD_NAMES)[number] {
  return METHOD_NAMES.has(method);
}

/** seed 4.3: how a point of sale's QR takes orders (no zod here: the settings table and the renderer read it). */
export const QR_MODES = ['static', 'dynamic', 'hybrid'] as const;
/** seed 2.7: the payment methods a discount may name (here, not in the schemas, so the settings table can use them without zod). */
export const DISCOUNT_METHOD_TYPES = ['debit_card', 'credit_card', 'account_money', 'prepaid_card'] as const;

/** The sellers' countries the kiosk serves, and each one's currency (seed 2.5: country_code; CLP has no minor unit). */
export const COUNTRY_CURRENCY = { AR: 'ARS', BR: 'BRL', CL: 'CLP', UY: 'UYU' } as const;
export const COUNTRY_CODES = ['AR', 'BR', 'CL', 'UY'] as const;
export type CountryCode = (typeof COUNTRY_CODES)[number];
export function isSupportedCountry(code: string): code is CountryCode {
  return Object.hasOwn(COUNTRY_CURRENCY, code);
}

/**
 * The languages a kiosk can show, in the order Settings offers them (issue 5 "Languages"). One list for the core's
 * stored settings, the contract and the Settings screen (issue 13: no second copy beside the core's).
 */
export const LANGUAGES = ['es-AR', 'es-CL', 'es-UY', 'pt-BR', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

/**
 * seed 2.5 / 7.4: ORD followed by 26 alphanumerics (29 characters); orders made with TEST credentials are ORDTST + 26
 * (32 characters: platform-facts "Identifiers and formats", the official Node SDK's tests). Both are order ids.
 */
export const ORDER_ID_PATTERN = /^ORD(?:TST)?[A-Za-z0-9]{26}$/;

/**
 * issue 17 "People": the kiosk's first manager (the manager PIN it always had) and the name the people migration
 * (electron/core/store/database.ts) stores for them. Until the owner renames them the renderer shows that stored
 * default in the kiosk's language, the role's word ("Encargado", "Gerente"); reports and the CSV keep the stored name.
 */
export const FIRST_MANAGER = { id: 'manager', name: 'Manager' } as const;

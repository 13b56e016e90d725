// What the platform accepts in a create (platform-facts "Create-order limits", from the Orders API reference for QR:
// https://www.mercadopago.com.ar/developers/en/reference/in-person-payments/qr-code/orders/create-order/post). The
// kiosk checks them before it sends (issue 26 "Send only what the platform accepts"). Zod-free: the renderer imports it.

/** items[].external_code: at most 30 characters. */
export const MAX_EXTERNAL_CODE = 30;

/** items[]: at most 10 per order. A bigger cart is folded into this many lines for the platform (orders/order-items.ts). */
export const MAX_ORDER_ITEMS = 10;

/** How many lines one sale may have on the kiosk (its receipt and History keep them all): a limit of ours, not the platform's. */
export const MAX_SALE_LINES = 50;

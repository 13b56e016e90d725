// The catalog's own limits (issue 29), zod-free so the renderer's editor uses them without bundling the contract.

/** A category's name is short: it labels a group of products on a counter screen. */
export const MAX_CATEGORY_NAME = 40;
/** "A short list managed in Settings": a store with more than this is using categories as products. */
export const MAX_CATEGORIES = 100;

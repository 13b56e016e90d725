// Messages of the sale screens (issue 5). Keys are namespaced 'sale.*'.
export const sale = {
  en: {} as Record<string, string>,
  es: {} as Record<string, string>,
  pt: {} as Record<string, string>,
};

// Messages of the settings screens (issue 5). Keys are namespaced 'settings.*'.
export const settings = {
  en: {} as Record<string, string>,
  es: {} as Record<string, string>,
  pt: {} as Record<string, string>,
};

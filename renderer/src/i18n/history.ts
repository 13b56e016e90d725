// Messages of the history screens (issue 5). Keys are namespaced 'history.*'.
export const history = {
  en: {} as Record<string, string>,
  es: {} as Record<string, string>,
  pt: {} as Record<string, string>,
};

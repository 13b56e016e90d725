// The shape of a message table and the two pure steps of turning a message into text: pick the plural form, fill the
// {name} placeholders (issue 13 "Typed i18n").
//
// Why our own ~60 lines and not a library: the tables were already plain TypeScript objects per area, and what issue 13
// asks of them (English as the schema of es and pt, keys checked by the compiler, plurals by Intl.PluralRules) is
// types plus the browser's own Intl. Paraglide would also type the keys, but it adds a compiler step to the build and a
// message format of its own to learn, and every other library carries a runtime into the counter display's bundle
// (test/unit/renderer/bundle-budget.test.ts: under 100 KB gzip). This costs no dependency and no build step.

/**
 * Words that change with a count, one per category of Intl.PluralRules: `one` and `other` always, and the others a
 * language has where its words differ (es and pt also have `many`, for millions, which reads like `other` here). A form
 * a language does not give falls back to `other`. `{count}` in a form is the count.
 */
export type Plural = { readonly one: string; readonly other: string } & { readonly [C in 'zero' | 'two' | 'few' | 'many']?: string };
export type Message = string | Plural;
/** A table of one area in English, the schema of the others. */
export type Table = Readonly<Record<string, Message>>;
/**
 * The table of another language for the English one `E`: exactly its keys (a missing or an extra key does not
 * compile), a text where English has a text and plural forms where English has them.
 */
export type Translation<E extends Table> = { readonly [K in keyof E]: E[K] extends string ? string : Plural };
export type Params = Readonly<Record<string, string | number>>;

/** What picks a plural form: Intl.PluralRules, or `pluralRules`' adjusted one. */
export type PluralRules = Pick<Intl.PluralRules, 'select'>;

/**
 * The plural rules the kiosk's words follow for `locale`: CLDR's (Intl.PluralRules), except that zero takes the plural
 * in Portuguese. CLDR puts 0 in pt's `one` ("0 venda"), but Brazilian readers expect "0 vendas" (issue 17 review);
 * es and en already say "0 ventas", "0 sales".
 */
export function pluralRules(locale: string): PluralRules {
  const rules = new Intl.PluralRules(locale);
  if (!locale.startsWith('pt')) return rules;
  return { select: (count) => (count === 0 ? 'other' : rules.select(count)) };
}

/** The form of `message` for `count` by the language's plural rules; a text has one form for every count. */
export function pluralForm(message: Message, count: number, rules: PluralRules): string {
  if (typeof message === 'string') return message;
  return message[rules.select(count)] ?? message.other;
}

/** `text` with each {name} replaced by `params[name]`; a placeholder without a value stays as it is, visible. */
export function fill(text: string, params: Params): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (params[name] === undefined ? whole : String(params[name])));
}

/**
 * `texts` keyed by a code union, as table entries `<prefix><code>`: the words for a list of codes stay typed by that
 * list (shared/catalog-problems.ts, shared/relay-problems.ts), so a new code without words does not compile.
 */
export function prefixed<P extends string, C extends string>(prefix: P, texts: Readonly<Record<C, string>>): Record<`${P}${C}`, string> {
  return Object.fromEntries(Object.entries(texts).map(([code, text]) => [`${prefix}${code}`, text])) as Record<`${P}${C}`, string>;
}

// fast-check arbitraries read off a zod schema, for fuzzing a boundary that validates with that schema (the KioskApi:
// shared/kiosk-api.ts kioskInputs). Most draws fit the schema, so the services behind the boundary run; the rest are
// near misses (a key dropped or added, a wrong type, a hostile string) and anything at all. Reading the schema instead
// of writing a generator per method means a method added to the contract is fuzzed without touching the test.
import fc from 'fast-check';
import type { z } from 'zod';

/** Strings that have broken parsers, queries, paths and formatters before, mixed into every string draw. */
export const HOSTILE_STRINGS: readonly string[] = [
  '',
  ' ',
  '0',
  '-1',
  '1e3',
  '10.50',
  '10,50',
  '0.001',
  '99999999999999999999',
  'NaN',
  'Infinity',
  'null',
  'undefined',
  'true',
  '{}',
  '[]',
  '__proto__',
  'constructor',
  '../../etc/passwd',
  '%00',
  '\u0000',
  '\r\n\r\n',
  '<script>alert(1)</script>',
  "'; DROP TABLE orders;--",
  'ORD00000000000000000000000000',
  'ORDTST0000000000000000000000000',
  'PT0S',
  'P1D',
  'PT5M',
  'http://127.0.0.1:1/',
  'javascript:alert(1)',
  '😀'.repeat(40),
  'x'.repeat(5000),
  'title,unit_price,unit_measure\nCafé,10.50,unit\n',
  'title,unit_price,unit_measure\n"unterminated,1,u\n',
];

export interface ArbitraryOptions {
  /** Extra strings offered wherever a string goes (e.g. ids known to exist, the right PIN), read at each draw. */
  known?: () => readonly string[];
}

type Def = { type: string } & Record<string, unknown>;
const defOf = (schema: unknown): Def => (schema as { _zod: { def: Def } })._zod.def;

function stringArbitrary(def: Def, options: ArbitraryOptions): fc.Arbitrary<string> {
  const choices: Array<fc.WeightedArbitrary<string>> = [
    { arbitrary: fc.constantFrom(...HOSTILE_STRINGS), weight: 2 },
    { arbitrary: fc.string({ maxLength: 40 }), weight: 2 },
  ];
  const checks = ((def.checks as unknown[] | undefined) ?? []).map((check) => defOf(check));
  const pattern = checks.find((c) => c.check === 'string_format' && c.pattern instanceof RegExp)?.pattern as RegExp | undefined;
  if (pattern) {
    try {
      choices.push({ arbitrary: fc.stringMatching(pattern), weight: 6 });
    } catch {
      // A pattern fast-check cannot invert: the other choices still cover the field.
    }
  } else {
    const min = checks.find((c) => c.check === 'min_length')?.minimum as number | undefined;
    const max = checks.find((c) => c.check === 'max_length')?.maximum as number | undefined;
    choices.push({ arbitrary: fc.string({ minLength: min ?? 0, maxLength: Math.min(max ?? 64, 64) }), weight: 4 });
  }
  if (options.known) {
    const known = options.known;
    choices.push({ arbitrary: fc.nat().map((n) => known()[n % Math.max(1, known().length)] ?? ''), weight: 4 });
  }
  return fc.oneof(...choices);
}

const NUMBERS = fc.oneof(
  fc.integer({ min: -3, max: 600 }),
  fc.double(),
  fc.constantFrom(0, -0, 1, 10, 10_000, 10_001, 2 ** 53, Number.NaN, Number.POSITIVE_INFINITY, -1e308),
);

/** An arbitrary drawing values that mostly satisfy `schema`. Unknown kinds of schema draw anything. */
export function arbitraryFor(schema: z.ZodType, options: ArbitraryOptions = {}, depth = 0): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  if (depth > 6) return fc.anything();
  switch (def.type) {
    case 'object': {
      const shape = def.shape as Record<string, z.ZodType>;
      const model = Object.fromEntries(Object.entries(shape).map(([key, value]) => [key, arbitraryFor(value, options, depth + 1)]));
      return fc.record(model) as fc.Arbitrary<unknown>;
    }
    case 'string':
      return stringArbitrary(def, options);
    case 'number':
    case 'int':
      return NUMBERS;
    case 'boolean':
      return fc.boolean();
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries as Record<string, string>));
    case 'literal':
      return fc.constantFrom(...(def.values as unknown[]));
    case 'optional':
      return fc.option(arbitraryFor(def.innerType as z.ZodType, options, depth + 1), { nil: undefined, freq: 3 });
    case 'nullable':
      return fc.option(arbitraryFor(def.innerType as z.ZodType, options, depth + 1), { nil: null, freq: 3 });
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
      return arbitraryFor(def.innerType as z.ZodType, options, depth + 1);
    case 'array':
      return fc.array(arbitraryFor(def.element as z.ZodType, options, depth + 1), { maxLength: 12 });
    case 'union':
      return fc.oneof(...(def.options as z.ZodType[]).map((option) => arbitraryFor(option, options, depth + 1)));
    default:
      return fc.anything();
  }
}

/**
 * What a caller at the boundary may send: mostly schema-shaped payloads, some with one key dropped or one unknown key
 * added, and some that are anything at all (null, a number, an array, a deep object).
 */
export function payloadFor(schema: z.ZodType, options: ArbitraryOptions = {}): fc.Arbitrary<unknown> {
  const shaped = arbitraryFor(schema, options);
  const nearMiss = fc.tuple(shaped, fc.nat(), fc.boolean()).map(([value, n, add]) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    const keys = Object.keys(copy);
    if (add || keys.length === 0) copy[`unexpected_${n % 5}`] = n;
    else delete copy[keys[n % keys.length] as string];
    return copy;
  });
  return fc.oneof(
    { arbitrary: shaped, weight: 6 },
    { arbitrary: nearMiss, weight: 2 },
    { arbitrary: fc.anything({ maxDepth: 3 }), weight: 1 },
    { arbitrary: fc.constantFrom<unknown>(null, undefined, 0, 'x', [], [{}], true), weight: 1 },
  );
}

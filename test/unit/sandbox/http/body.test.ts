import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { canonicalJson, parseJson, schemaError } from '../../../../sandbox/http/body.ts';

function errorFor(schema: z.ZodType, input: unknown) {
  const parsed = schema.safeParse(input);
  assert.equal(parsed.success, false);
  const error = schemaError(parsed.error as z.ZodError, input);
  return { code: error.code, details: error.details };
}

test('seed 4.3: canonical JSON ignores whitespace and key order, not array order', () => {
  assert.equal(canonicalJson(JSON.parse('{"b":1, "a":{"d":[1,2],"c":null}}')), canonicalJson({ a: { c: null, d: [1, 2] }, b: 1 }));
  assert.notEqual(canonicalJson([1, 2]), canonicalJson([2, 1]));
  assert.equal(canonicalJson(undefined), '');
  assert.equal(canonicalJson({ a: 'x"y' }), '{"a":"x\\"y"}');
});

test('seed 7.3: JSON nested deeper than 64 levels is refused before anything recurses over it', () => {
  const deep = '['.repeat(5000) + ']'.repeat(5000);
  const parsed = parseJson(deep);
  assert.equal(parsed.ok, false);
  assert.match(parsed.ok ? '' : parsed.reason, /deeper than 64/);
  assert.equal(parseJson('['.repeat(64) + ']'.repeat(64)).ok, true);
  assert.equal(parseJson('['.repeat(65) + ']'.repeat(65)).ok, false);
});

test('seed 7.3: malformed JSON is reported, an empty body reads as undefined', () => {
  assert.deepEqual(parseJson('{'), { ok: false, reason: 'The body is not valid JSON.' });
  assert.deepEqual(parseJson('  '), { ok: true, value: undefined });
  assert.deepEqual(parseJson('{"a":1}'), { ok: true, value: { a: 1 } });
});

const schema = z.strictObject({
  type: z.literal('qr'),
  mode: z.enum(['static', 'dynamic']).optional(),
  name: z.string().max(3),
  nested: z.strictObject({ n: z.number().int() }).optional(),
});

test('seed 7.3: an unknown property is unsupported_properties naming every one, by dotted path', () => {
  assert.deepEqual(errorFor(schema, { type: 'qr', name: 'a', x: 1, y: 2 }), { code: 'unsupported_properties', details: ['x', 'y'] });
  assert.deepEqual(errorFor(schema, { type: 'qr', name: 'a', nested: { n: 1, z: 1 } }), { code: 'unsupported_properties', details: ['nested.z'] });
});

test('seed 7.3: a value of the wrong JSON type is property_type, literals and enums included', () => {
  assert.deepEqual(errorFor(schema, { type: 'qr', name: 5 }), { code: 'property_type', details: ['name'] });
  assert.deepEqual(errorFor(schema, { type: 1, name: 'a' }), { code: 'property_type', details: ['type'] });
  assert.deepEqual(errorFor(schema, { type: 'qr', name: 'a', mode: 2 }), { code: 'property_type', details: ['mode'] });
  assert.deepEqual(errorFor(schema, { type: 'qr', name: 'a', nested: { n: 1.5 } }), { code: 'property_type', details: ['nested.n'] });
  assert.deepEqual(errorFor(schema, []), { code: 'property_type', details: ['body'] });
});

test('seed 7.3: a missing field or a wrong value of the right type is property_value', () => {
  assert.deepEqual(errorFor(schema, { type: 'qr' }), { code: 'property_value', details: ['name'] });
  assert.deepEqual(errorFor(schema, { type: 'point', name: 'a' }), { code: 'property_value', details: ['type'] });
  assert.deepEqual(errorFor(schema, { type: 'qr', name: 'a', mode: 'hybrid' }), { code: 'property_value', details: ['mode'] });
  assert.deepEqual(errorFor(schema, { type: 'qr', name: 'abcd' }), { code: 'property_value', details: ['name'] });
  assert.deepEqual(errorFor(schema, undefined), { code: 'property_value', details: ['body'] });
});

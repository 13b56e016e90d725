// Issue 2, fault injection: path globs and the dice roll of `rate`.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  compile,
  FaultTable,
  MAX_GLOB_WILDCARDS,
  MAX_REGEX_INPUT,
  MAX_REGEX_LENGTH,
  PathPatternError,
  regexHazard,
} from '../../../sandbox/http/faults.ts';

describe('fault path patterns (issue 2: `*` within one segment, `**` across segments, `^` a regular expression)', () => {
  it('`*` matches within one path segment only', () => {
    const pattern = compile('/v1/orders/*');
    assert.equal(pattern.test('/v1/orders/ORDTST01JABCDEFGHJKMNPQRSTVW'), true);
    assert.equal(pattern.test('/v1/orders/ORDTST01JABCDEFGHJKMNPQRSTVW/cancel'), false);
    assert.equal(pattern.test('/v1/orders'), false);
  });

  it('`*` inside a pattern still stops at a slash', () => {
    const pattern = compile('/v1/orders/*/cancel');
    assert.equal(pattern.test('/v1/orders/ORD1/cancel'), true);
    assert.equal(pattern.test('/v1/orders/ORD1/extra/cancel'), false);
    assert.equal(pattern.test('/v1/orders/ORD1/refund'), false);
  });

  it('`**` matches across segments', () => {
    const pattern = compile('/v1/**');
    assert.equal(pattern.test('/v1/orders'), true);
    assert.equal(pattern.test('/v1/orders/ORD1/cancel'), true);
    assert.equal(pattern.test('/oauth/token'), false);
    assert.equal(compile('/**/cancel').test('/v1/orders/ORD1/cancel'), true);
  });

  it('matches the whole path, and takes regular-expression characters of a glob literally', () => {
    assert.equal(compile('/oauth/token').test('/oauth/token/extra'), false);
    assert.equal(compile('/oauth/token').test('/x/oauth/token'), false);
    assert.equal(compile('/a.b').test('/a.b'), true);
    assert.equal(compile('/a.b').test('/axb'), false);
    assert.equal(compile('/a+(b)').test('/a+(b)'), true);
  });

  it('a pattern starting with ^ is a regular expression as is', () => {
    const pattern = compile('^/v1/orders/[A-Z0-9]+/(cancel|refund)$');
    assert.equal(pattern.test('/v1/orders/ORD1/refund'), true);
    assert.equal(pattern.test('/v1/orders/ord1/refund'), false);
  });

  it('refuses an invalid regular expression with a message that names it', () => {
    assert.throws(() => compile('^(unclosed'), /\^\(unclosed is not a valid regular expression/);
  });
});

/** The PathPatternError compile throws for `pattern` (fails the test when it compiles). */
function refusal(pattern: string): PathPatternError {
  try {
    compile(pattern);
  } catch (error) {
    assert.ok(error instanceof PathPatternError, String(error));
    return error;
  }
  assert.fail(`expected ${pattern} to be refused`);
}

describe('fault path patterns are safe and bounded (issue 12: no ReDoS through POST /sandbox/faults)', () => {
  it('refuses the textbook catastrophic patterns as nested quantifiers, naming the problem', () => {
    for (const pattern of ['^(a+)+$', '^(a*)*$', '^(a|a)*$', '^(?:[a-z]+/)+x$', '^((a)?)*$', '^(a{2})+$']) {
      const error = refusal(pattern);
      assert.equal(error.reason, 'unsafe', pattern);
      assert.match(error.message, /repeats a group that holds a quantifier or an alternation/, pattern);
      assert.ok(error.message.includes(pattern), `the message quotes ${pattern}`);
    }
  });

  it('refuses backreferences and lookaround, which no bound covers', () => {
    assert.match(refusal('^/(a)\\1$').message, /backreference \(\\1\)/);
    assert.match(refusal('^/(?<id>a)\\k<id>$').message, /named backreference/);
    assert.match(refusal('^/v1(?=/orders)').message, /lookahead or lookbehind \(\(\?=…\)/);
    assert.match(refusal('^/v1(?!/orders)').message, /lookahead or lookbehind/);
    assert.match(refusal('^(?<=x)/v1').message, /lookahead or lookbehind \(\(\?<=…\)/);
    assert.match(refusal('^(?<!x)/v1').message, /lookahead or lookbehind/);
  });

  it(`refuses a regular expression longer than ${MAX_REGEX_LENGTH} characters, saying how long it is`, () => {
    const long = `^/${'a'.repeat(MAX_REGEX_LENGTH)}`;
    const error = refusal(long);
    assert.equal(error.reason, 'unsafe');
    assert.match(error.message, new RegExp(`at most ${MAX_REGEX_LENGTH} characters, this one has ${long.length}`));
    // One character less is accepted.
    assert.equal(compile(long.slice(0, MAX_REGEX_LENGTH)).test(long.slice(1, MAX_REGEX_LENGTH)), true);
  });

  it('refuses flat patterns whose ways to match multiply past the bound (polynomial backtracking)', () => {
    assert.match(refusal('^.*.*.*x').message, /too many ways to match/);
    assert.match(refusal(`^${'(a|b)'.repeat(21)}`).message, /too many ways to match/);
    assert.match(refusal('^x|.*.*y').message, /too many ways to match/, 'an unanchored alternative counts every start');
    assert.equal(regexHazard('^.*.*x', MAX_REGEX_INPUT), null, 'two flat repeats stay under the bound');
  });

  it('an invalid regular expression is `invalid`, not `unsafe`', () => {
    assert.equal(refusal('^(unclosed').reason, 'invalid');
    assert.equal(refusal('^a{2').reason, 'invalid', 'strict (u flag) syntax: a stray { is an error, not a literal');
  });

  it('accepts safe regular expressions and matches with them', () => {
    const writes = compile('^/v1/orders(/[^/]+/(cancel|refund))?$');
    assert.equal(writes.test('/v1/orders'), true);
    assert.equal(writes.test('/v1/orders/ORD1/refund'), true);
    assert.equal(writes.test('/v1/orders/ORD1'), false);
    const named = compile('^/v1/(?<kind>orders|payments)/\\p{Lu}+$');
    assert.equal(named.test('/v1/payments/ABC'), true);
    assert.equal(named.test('/v1/payments/abc'), false);
    assert.equal(compile('^/v1/orders/ORD[A-Z0-9]{26}$').test(`/v1/orders/ORD${'A1'.repeat(13)}`), true);
  });

  it(`a regular expression never matches a path longer than ${MAX_REGEX_INPUT} characters (bounded input)`, () => {
    const any = compile('^/v1/.*$');
    assert.equal(any.test(`/v1/${'x'.repeat(MAX_REGEX_INPUT - 4)}`), true);
    assert.equal(any.test(`/v1/${'x'.repeat(MAX_REGEX_INPUT - 3)}`), false);
    // A glob has no such bound: it is matched without backtracking.
    assert.equal(compile('/v1/**').test(`/v1/${'x'.repeat(10_000)}`), true);
  });

  it(`a glob may have at most ${MAX_GLOB_WILDCARDS} wildcards, and a worst-case glob still answers`, () => {
    const error = refusal(`/${'*a'.repeat(MAX_GLOB_WILDCARDS + 1)}`);
    assert.equal(error.reason, 'unsafe');
    assert.match(error.message, new RegExp(`at most ${MAX_GLOB_WILDCARDS} wildcards \\(\\* or \\*\\*\\), this one has ${MAX_GLOB_WILDCARDS + 1}`));
    const worst = compile(`/${'**a'.repeat(MAX_GLOB_WILDCARDS)}`);
    assert.equal(worst.test(`/${'a'.repeat(5000)}b`), false);
    assert.equal(worst.test(`/${'a'.repeat(5000)}`), true);
  });

  it('FaultTable.add throws the refusal and keeps nothing', () => {
    const table = new FaultTable(() => 0);
    assert.throws(() => table.add({ method: 'GET', path: '^(a+)+$', kind: 'delay', rate: 1 }), PathPatternError);
    assert.deepEqual(table.list(), []);
    assert.equal(table.pick('GET', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!'), undefined);
  });
});

describe('FaultTable.pick (issue 2: rate 0 never fires, rate 1 always)', () => {
  const fault = { method: 'GET', path: '/v1/orders/*', kind: 'error_before' as const, status: 503 };

  it('rate 1 fires on every roll, even the highest', () => {
    const table = new FaultTable(() => 0.999_999);
    table.add({ ...fault, rate: 1 });
    assert.equal(table.pick('GET', '/v1/orders/ORD1')?.status, 503);
  });

  it('rate 0 never fires, even on a roll of 0', () => {
    const table = new FaultTable(() => 0);
    table.add({ ...fault, rate: 0 });
    assert.equal(table.pick('GET', '/v1/orders/ORD1'), undefined);
  });

  it('a rate in between fires when the roll is below it', () => {
    let roll = 0.2;
    const table = new FaultTable(() => roll);
    table.add({ ...fault, rate: 0.5 });
    assert.ok(table.pick('GET', '/v1/orders/ORD1'));
    roll = 0.7;
    assert.equal(table.pick('GET', '/v1/orders/ORD1'), undefined);
  });

  it('matches the method case-insensitively, `*` matching any method, and ignores other paths', () => {
    const table = new FaultTable(() => 0);
    table.add({ ...fault, rate: 1 });
    assert.ok(table.pick('get', '/v1/orders/ORD1'));
    assert.equal(table.pick('POST', '/v1/orders/ORD1'), undefined);
    assert.equal(table.pick('GET', '/v1/orders/ORD1/cancel'), undefined);
    table.add({ method: '*', path: '/oauth/token', kind: 'rate_limit', rate: 1 });
    assert.equal(table.pick('POST', '/oauth/token')?.kind, 'rate_limit');
  });

  it('the first matching fault wins; clear() removes them all', () => {
    const table = new FaultTable(() => 0);
    const first = table.add({ ...fault, rate: 1 });
    table.add({ ...fault, rate: 1, status: 500 });
    assert.equal(table.pick('GET', '/v1/orders/ORD1')?.id, first.id);
    assert.equal(table.list().length, 2);
    table.clear();
    assert.equal(table.list().length, 0);
    assert.equal(table.pick('GET', '/v1/orders/ORD1'), undefined);
  });
});

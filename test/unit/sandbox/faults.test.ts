// Issue 2, fault injection: path globs and the dice roll of `rate`.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compile, FaultTable } from '../../../sandbox/http/faults.ts';

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

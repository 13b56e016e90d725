// issue 14 "cold start": the first load's page carries the first screen's answers (electron/web-shell/first-reads.ts,
// shared/first-reads.ts), only for the holder of the launch's secret and never cached; the events emitted between those
// answers and the page's event stream come first on that stream; a text in the answers cannot break out of the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { get } from 'node:http';
import { join } from 'node:path';
import { startWebShell, type EventSource } from '../../../../electron/web-shell/server.ts';
import { EventsSinceFirstReads, firstReadsElement } from '../../../../electron/web-shell/first-reads.ts';
import { FIRST_READS, FIRST_READS_ELEMENT_ID, firstReadKey, type FirstReadsPayload } from '../../../../shared/first-reads.ts';
import type { KioskApi, KioskEvent } from '../../../../shared/kiosk-api.ts';
import { connectSse } from '../../../support/sse-client.ts';

const INDEX = '<!doctype html><html><head><title>Kiosk</title></head><body><div id="app"></div></body></html>';
const NASTY = '</script><script>alert(1)</script><!-- & \u2028';

/** An event source the test emits on, as the core's is. */
function emitter(): EventSource & { emit(event: KioskEvent): void; listeners: number } {
  const listeners = new Set<(event: KioskEvent) => void>();
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit: (event) => listeners.forEach((listener) => listener(event)),
    get listeners() {
      return listeners.size;
    },
  };
}

/** An API whose first reads answer with their method's name (and a catalog item named to break out of a script). */
function firstReadsApi(calls: string[]): KioskApi {
  const answer = (method: string) => async (input: unknown) => {
    calls.push(firstReadKey(method, input));
    if (method === 'listCatalog') return { ok: true, value: [{ id: 'c1', name: NASTY }] };
    if (method === 'currentCashier') return { ok: false, error: { code: 'internal', message: 'down' } };
    return { ok: true, value: { method } };
  };
  return Object.fromEntries(FIRST_READS.map(({ method }) => [method, answer(method)])) as unknown as KioskApi;
}

/** The payload of the page's first-reads element, read as a browser would (the element's text, then JSON). */
function payloadOf(html: string): FirstReadsPayload | null {
  const match = new RegExp(`<script id="${FIRST_READS_ELEMENT_ID}" type="application/json">([^<]*)</script>`).exec(html);
  return match ? (JSON.parse(match[1] as string) as FirstReadsPayload) : null;
}

async function withShell(run: (shell: Awaited<ReturnType<typeof startWebShell>>, calls: string[], events: ReturnType<typeof emitter>) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'web-shell-first-'));
  writeFileSync(join(dir, 'index.html'), INDEX);
  const calls: string[] = [];
  const events = emitter();
  const shell = await startWebShell({ api: firstReadsApi(calls), events, staticDir: dir });
  try {
    await run(shell, calls, events);
  } finally {
    await shell.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

test('issue 14: the launch URL\'s page carries the answers that succeeded, keyed as the renderer asks, never cached', async () => {
  await withShell(async (shell, calls) => {
    const response = await fetch(shell.url);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('cache-control'), 'no-store');
    assert.equal(response.headers.get('etag'), null, 'a page with this moment\'s answers has no validator');
    const html = await response.text();
    const payload = payloadOf(html);
    assert.ok(payload, 'the element is in the page');
    assert.ok(html.indexOf('<div id="app"></div>') < html.indexOf(FIRST_READS_ELEMENT_ID) && html.indexOf(FIRST_READS_ELEMENT_ID) < html.indexOf('</body>'), 'at the end of the body: after the page\'s own part, before the page is parsed to its end');
    assert.equal(html.replace(/<script id="[^"]+" type="application\/json">[^<]*<\/script>/, ''), INDEX, 'the page is otherwise the file');
    assert.deepEqual(calls.sort(), FIRST_READS.map((r) => firstReadKey(r.method, r.input)).sort(), 'each first read asked once');
    assert.deepEqual(Object.keys(payload.answers).sort(), FIRST_READS.filter((r) => r.method !== 'currentCashier').map((r) => firstReadKey(r.method, r.input)).sort(), 'a failed read is left to the page');
    assert.deepEqual(payload.answers[firstReadKey('listOrders', { limit: 10 })], { ok: true, value: { method: 'listOrders' } });
    // The item's name comes back whole, and nothing in the page closes the element early.
    assert.deepEqual(payload.answers[firstReadKey('listCatalog', {})], { ok: true, value: [{ id: 'c1', name: NASTY }] });
    assert.equal(html.split('</script>').length, 2, 'one </script>: the element\'s own');
    assert.ok(!html.includes('<!--'));
    assert.match(payload.stream, /^[0-9a-f]{32}$/);
  });
});

test('issue 14: without the secret, with a wrong one, or for HEAD the page is the plain one', async () => {
  await withShell(async (shell, calls) => {
    for (const [url, method] of [
      [`${shell.origin}/`, 'GET'],
      [`${shell.origin}/?k=${'0'.repeat(shell.secret.length)}`, 'GET'],
      [`${shell.origin}/?k=short`, 'GET'],
      [shell.url, 'HEAD'],
    ] as const) {
      const response = await fetch(url, { method });
      assert.equal(response.status, 200, url);
      assert.notEqual(response.headers.get('etag'), null, `${method} ${url}: the cached plain page`);
      if (method === 'GET') assert.equal(await response.text(), INDEX, url);
    }
    assert.deepEqual(calls, [], 'nothing read for them');
  });
});

test('issue 14: the events emitted after the answers were read come first on the page\'s stream, once', async () => {
  await withShell(async (shell, _calls, events) => {
    const payload = payloadOf(await (await fetch(shell.url)).text());
    assert.ok(payload);
    const signedIn: KioskEvent = { type: 'connectivity.changed', connectivity: { platform: 'online', relay: 'live' } as never };
    events.emit(signedIn);
    const stream = await connectSse(`${shell.origin}/api/events?k=${shell.secret}&b=${payload.stream}`);
    try {
      await stream.until((messages) => messages.length >= 1);
      assert.deepEqual(JSON.parse(stream.messages[0]?.data ?? 'null'), signedIn);
      events.emit({ type: 'session.changed', session: { state: 'connected' } as never });
      await stream.until((messages) => messages.length >= 2);
      assert.deepEqual(stream.messages.map((m) => m.event), ['connectivity.changed', 'session.changed']);
    } finally {
      stream.close();
    }
    // The token is spent: a second stream with it (EventSource's reconnect) gets the live events only.
    const again = await connectSse(`${shell.origin}/api/events?k=${shell.secret}&b=${payload.stream}`);
    try {
      events.emit({ type: 'session.changed', session: { state: 'disconnected' } as never });
      await again.until((messages) => messages.length >= 1);
      assert.deepEqual(again.messages.map((m) => JSON.parse(m.data).session?.state), ['disconnected']);
    } finally {
      again.close();
    }
  });
});

test('issue 14: kept events are bounded: a token is taken once, and a page that never comes stops being kept for', () => {
  const events = emitter();
  const kept = new EventsSinceFirstReads();
  const token = kept.keep(events);
  assert.equal(events.listeners, 1);
  for (let i = 0; i < 1_000; i += 1) events.emit({ type: 'session.changed', session: { state: `s${i}` } as never });
  assert.equal(events.listeners, 1, 'still kept at 1,000');
  events.emit({ type: 'session.changed', session: { state: 'one too many' } as never });
  assert.equal(events.listeners, 0, 'no longer kept past the bound');
  assert.equal(kept.take(token), null, 'a stream then gets the live events only');

  const other = kept.keep(events);
  events.emit({ type: 'session.changed', session: { state: 'kept' } as never });
  assert.deepEqual(kept.take(other)?.map((e) => (e.type === 'session.changed' ? e.session.state : null)), ['kept']);
  assert.equal(kept.take(other), null, 'once');
  assert.equal(kept.take('not-a-token'), null);
  assert.equal(kept.take(null), null);
  kept.keep(events);
  kept.clear();
  assert.equal(events.listeners, 0, 'the shell closing stops keeping');
});

test('issue 14: the element escapes every character that could end it or open a comment', () => {
  const element = firstReadsElement({ answers: { x: { ok: true, value: NASTY } }, stream: 'ab' });
  const text = element.slice(element.indexOf('>') + 1, element.lastIndexOf('</script>'));
  assert.doesNotMatch(text, /[<>&\u2028\u2029]/);
  assert.deepEqual(JSON.parse(text), { answers: { x: { ok: true, value: NASTY } }, stream: 'ab' });
});

test('issue 14: a kiosk that does not answer its first reads in time gets the plain page, not a page held up', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'web-shell-first-'));
  writeFileSync(join(dir, 'index.html'), INDEX);
  const events = emitter();
  const never = Object.fromEntries(FIRST_READS.map(({ method }) => [method, () => new Promise(() => undefined)])) as unknown as KioskApi;
  const shell = await startWebShell({ api: never, events, staticDir: dir, firstReadsWaitMs: 50 });
  try {
    const response = await fetch(shell.url);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('cache-control'), 'no-store');
    assert.equal(await response.text(), INDEX);
    assert.equal(events.listeners, 0, 'no events kept for a page without answers');
  } finally {
    await shell.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A shell whose first reads wait until the test releases them. */
async function withHeldReads(run: (shell: Awaited<ReturnType<typeof startWebShell>>, release: () => void, events: ReturnType<typeof emitter>) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'web-shell-first-'));
  writeFileSync(join(dir, 'index.html'), INDEX);
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const calls: string[] = [];
  const answering = firstReadsApi(calls);
  const held = Object.fromEntries(FIRST_READS.map(({ method }) => [method, async (input: unknown) => (await released, (answering as unknown as Record<string, (input: unknown) => unknown>)[method]?.(input))])) as unknown as KioskApi;
  const events = emitter();
  const shell = await startWebShell({ api: held, events, staticDir: dir });
  try {
    await run(shell, release, events);
  } finally {
    release();
    await shell.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The page as a browser receives it: each chunk as it arrives. */
function pageChunks(url: string): { next(): Promise<string | null>; abort(): void } {
  const chunks: Array<string | null> = [];
  const waiting: Array<(chunk: string | null) => void> = [];
  const push = (chunk: string | null) => (waiting.length > 0 ? waiting.shift()?.(chunk) : chunks.push(chunk));
  const request = get(url, (response) => {
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => push(chunk));
    response.on('end', () => push(null));
  });
  request.on('error', () => push(null));
  return {
    next: () => (chunks.length > 0 ? Promise.resolve(chunks.shift() ?? null) : new Promise((resolve) => waiting.push(resolve))),
    abort: () => request.destroy(),
  };
}

test('issue 14: the page\'s own part (its scripts) is sent before the answers are read; the answers end it', async () => {
  await withHeldReads(async (shell, release) => {
    const page = pageChunks(shell.url);
    const first = await page.next();
    assert.ok(first?.includes('<div id="app"></div>'), 'the page\'s own part came while the reads were held');
    assert.ok(!first?.includes(FIRST_READS_ELEMENT_ID), 'without the answers yet');
    release();
    let rest = '';
    for (let chunk = await page.next(); chunk !== null; chunk = await page.next()) rest += chunk;
    const payload = payloadOf(first + rest);
    assert.ok(payload, 'the answers end the page');
    assert.equal(Object.keys(payload.answers).length, FIRST_READS.length - 1);
    assert.ok((first + rest).endsWith('</body></html>'));
  });
});

test('issue 14: a page closed before its answers came keeps no events for a stream it will never open', async () => {
  await withHeldReads(async (shell, release, events) => {
    const page = pageChunks(shell.url);
    assert.ok(await page.next());
    assert.equal(events.listeners, 1, 'events kept while the answers are read');
    page.abort();
    // The shell learns of the closed connection at its next turn (loopback, an idle event loop): well within this.
    await new Promise((resolve) => setTimeout(resolve, 500));
    release();
    for (let waited = 0; events.listeners > 0 && waited < 5_000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(events.listeners, 0, 'no longer kept once the answers came for a page that is gone');
  });
});

test('issue 14: answers read ahead serve the next page load at once, with the events since; later loads read afresh', async () => {
  await withShell(async (shell, calls, events) => {
    shell.readAhead();
    shell.readAhead();
    const answersRead = FIRST_READS.map((r) => firstReadKey(r.method, r.input)).sort();
    for (let waited = 0; calls.length < FIRST_READS.length && waited < 5_000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.deepEqual([...calls].sort(), answersRead, 'read once, when asked to, before any page');
    const paid: KioskEvent = { type: 'session.changed', session: { state: 'connected' } as never };
    events.emit(paid);
    const first = payloadOf(await (await fetch(shell.url)).text());
    assert.ok(first);
    assert.equal(calls.length, FIRST_READS.length, 'the page was served from the answers read ahead');
    const stream = await connectSse(`${shell.origin}/api/events?k=${shell.secret}&b=${first.stream}`);
    try {
      await stream.until((messages) => messages.length >= 1);
      assert.deepEqual(JSON.parse(stream.messages[0]?.data ?? 'null'), paid, 'what changed after the read ahead comes first');
    } finally {
      stream.close();
    }
    const second = payloadOf(await (await fetch(shell.url)).text());
    assert.ok(second);
    assert.notEqual(second.stream, first.stream);
    assert.equal(calls.length, 2 * FIRST_READS.length, 'a second page load reads its own answers');
  });
});

test('issue 14: answers read ahead whose events are no longer kept are read again for the page', async () => {
  await withShell(async (shell, calls, events) => {
    shell.readAhead();
    for (let waited = 0; calls.length < FIRST_READS.length && waited < 5_000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
    // Past the bound of events kept for a page that has not come: the snapshot can no longer be brought up to date.
    for (let i = 0; i <= 1_000; i += 1) events.emit({ type: 'session.changed', session: { state: `s${i}` } as never });
    const payload = payloadOf(await (await fetch(shell.url)).text());
    assert.ok(payload);
    assert.equal(calls.length, 2 * FIRST_READS.length, 'read again when the page came');
    assert.equal(events.listeners, 1, 'the events are kept for the fresh answers only');
  });
});

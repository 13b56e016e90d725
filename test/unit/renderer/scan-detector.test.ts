// issue 29 "Scanner": a keyboard-wedge scanner's burst told from typing by key timing
// (renderer/src/components/sale/scan-detector.ts). Keys are fed with the timestamps a browser would give them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SCAN_MAX_GAP_MS, SCAN_MIN_LENGTH, ScanDetector, type ScanStep } from '../../../renderer/src/components/sale/scan-detector.ts';

/** Feeds `keys` (a string of characters, or names like 'Enter') `gap` ms apart from `start`; every step, in order. */
function feed(detector: ScanDetector<string>, keys: readonly string[], gap: number, start = 1000): Array<ScanStep<string>> {
  return keys.map((key, i) => detector.key({ key, time: start + i * gap, payload: `${key}@${i}` }));
}

const chars = (text: string): string[] => [...text];

test('a scanner burst (EAN-13 at 8 ms a key, then Enter) is one scan: every key held, the Enter gives the code', () => {
  const detector = new ScanDetector<string>();
  const steps = feed(detector, [...chars('7790895000997'), 'Enter'], 8);
  for (const step of steps.slice(0, -1)) assert.deepEqual(step, { release: [], action: 'hold' });
  assert.deepEqual(steps.at(-1), { release: [], action: 'scan', code: '7790895000997' });
  assert.equal(detector.holding, false, 'nothing is left held after a scan');
});

test('a Tab suffix ends a scan as Enter does; Shift between a scanner\'s capitals neither ends nor joins it', () => {
  const detector = new ScanDetector<string>();
  const steps = feed(detector, ['Shift', 'A', 'B', '-', '1', '2', '3', '_', 'x', 'Tab'], 5);
  assert.deepEqual(steps.at(-1), { release: [], action: 'scan', code: 'AB-123_x' });
  assert.equal(steps[0]?.action, 'pass');
});

test('a person typing an amount (150 ms a key) gets every key back, in order, and Enter charges as before', () => {
  const detector = new ScanDetector<string>();
  const steps = feed(detector, [...chars('1234567'), 'Enter'], 150);
  assert.deepEqual(steps[0], { release: [], action: 'hold' });
  // Each key is held until the next one shows it was typing; the one before it comes back with it.
  for (let i = 1; i < 7; i += 1) assert.deepEqual(steps[i], { release: [`${'1234567'[i - 1]}@${i - 1}`], action: 'hold' });
  assert.deepEqual(steps[7], { release: ['7@6'], action: 'pass' });
});

test('held keys come back once the pause after them is longer than a scanner\'s, and not before', () => {
  const detector = new ScanDetector<string>();
  feed(detector, chars('42'), 10);
  assert.deepEqual(detector.expire(1010 + SCAN_MAX_GAP_MS), [], 'still within a scanner\'s pause');
  assert.deepEqual(detector.expire(1010 + SCAN_MAX_GAP_MS + 1), ['4@0', '2@1']);
  assert.equal(detector.holding, false);
});

test('a fast burst shorter than a scan, then Enter, is typing: the keys come back and Enter passes', () => {
  const detector = new ScanDetector<string>();
  const steps = feed(detector, [...chars('12345'), 'Enter'], 5);
  assert.equal(SCAN_MIN_LENGTH, 6);
  assert.deepEqual(steps.at(-1), { release: ['1@0', '2@1', '3@2', '4@3', '5@4'], action: 'pass' });
});

test('an Enter that comes late after a fast burst is a person\'s Enter: the burst is given back, nothing is scanned', () => {
  const detector = new ScanDetector<string>();
  feed(detector, chars('77908950'), 5);
  const enter = detector.key({ key: 'Enter', time: 1035 + SCAN_MAX_GAP_MS + 20, payload: 'Enter' });
  assert.equal(enter.action, 'pass');
  assert.equal(enter.release.length, 8);
});

test('a slow key splits bursts: the slow part is given back, a scan after it still scans', () => {
  const detector = new ScanDetector<string>();
  feed(detector, chars('9'), 0, 0);
  const steps = feed(detector, [...chars('12345678'), 'Enter'], 6, 500);
  assert.deepEqual(steps[0], { release: ['9@0'], action: 'hold' });
  assert.deepEqual(steps.at(-1), { release: [], action: 'scan', code: '12345678' });
});

test('a note or an amount with a decimal comma is typing however fast: a space or a comma ends the burst', () => {
  const detector = new ScanDetector<string>();
  const steps = feed(detector, [...chars('Mesa 77'), ...chars('1,50'), 'Enter'], 3);
  assert.deepEqual(steps[4], { release: ['M@0', 'e@1', 's@2', 'a@3'], action: 'pass' }, 'the space');
  assert.deepEqual(steps.at(-1), { release: ['5@9', '0@10'], action: 'pass' }, 'two digits after the comma are no scan');
  assert.ok(steps.every((step) => step.action !== 'scan'));
});

test('shortcuts, auto-repeat and other keys are never part of a scan, and give back what was held', () => {
  const detector = new ScanDetector<string>();
  feed(detector, chars('12345'), 4);
  assert.deepEqual(detector.key({ key: '6', time: 1021, ctrlKey: true, payload: 'ctrl-6' }), { release: ['1@0', '2@1', '3@2', '4@3', '5@4'], action: 'pass' });
  feed(detector, chars('00000000'), 30, 2000);
  assert.equal(detector.key({ key: '0', time: 2240, repeat: true, payload: 'repeat' }).release.length, 8, 'a key held down repeats: a person');
  feed(detector, chars('123'), 4, 3000);
  assert.deepEqual(detector.key({ key: 'Backspace', time: 3010, payload: 'back' }), { release: ['1@0', '2@1', '3@2'], action: 'pass' });
});

test('the limits can be set: a shop whose codes are 4 characters can scan them', () => {
  const detector = new ScanDetector<string>({ minLength: 4, maxGapMs: 30 });
  assert.deepEqual(feed(detector, [...chars('A1B2'), 'Enter'], 25).at(-1), { release: [], action: 'scan', code: 'A1B2' });
  assert.equal(feed(detector, [...chars('A1B2'), 'Enter'], 31).at(-1)?.action, 'pass');
});

// issue 18 "Updates": when a downloaded update may install (electron/main/updater/update-policy.ts), as a table.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { inMaintenanceWindow, installDecision, isNewerVersion, parseMaintenanceWindow, type CounterActivity } from '../../../../electron/main/updater/update-policy.ts';

const idle: CounterActivity = { chargeWaiting: false, refundSending: false, outboxWaiting: 0 };
const at = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3));
const window = parseMaintenanceWindow('03:00-05:00')!;

describe('install decision', () => {
  const cases: Array<[string, CounterActivity, string, boolean, ReturnType<typeof installDecision>]> = [
    ['idle, inside the window', idle, '03:30', false, { install: true, because: 'window' }],
    ['idle, at the window\'s first minute', idle, '03:00', false, { install: true, because: 'window' }],
    ['idle, at the window\'s end (out)', idle, '05:00', false, { install: false, because: 'outside_window' }],
    ['idle, in the afternoon', idle, '15:00', false, { install: false, because: 'outside_window' }],
    ['idle, a manager tapped "update now"', idle, '15:00', true, { install: true, because: 'manager' }],
    ['a charge waiting, in the window', { ...idle, chargeWaiting: true }, '03:30', false, { install: false, because: 'charge_waiting' }],
    ['a charge waiting beats the manager\'s tap', { ...idle, chargeWaiting: true }, '15:00', true, { install: false, because: 'charge_waiting' }],
    ['a refund sending, in the window', { ...idle, refundSending: true }, '03:30', false, { install: false, because: 'refund_sending' }],
    ['a refund sending beats the manager\'s tap', { ...idle, refundSending: true }, '15:00', true, { install: false, because: 'refund_sending' }],
    ['outbox items queued, in the window', { ...idle, outboxWaiting: 2 }, '03:30', false, { install: false, because: 'outbox_waiting' }],
  ];
  for (const [name, activity, time, managerAsked, expected] of cases) {
    test(name, () => assert.deepEqual(installDecision({ activity, window, minuteOfDay: at(time), managerAsked }), expected));
  }
});

describe('maintenance window', () => {
  test('"HH:MM-HH:MM"; a window across midnight; nonsense and empty windows are refused', () => {
    assert.deepEqual(parseMaintenanceWindow('03:00-05:00'), { start: 180, end: 300 });
    const night = parseMaintenanceWindow('22:30-02:00')!;
    assert.deepEqual([at('23:00'), at('01:59'), at('02:00'), at('12:00')].map((m) => inMaintenanceWindow(night, m)), [true, true, false, false]);
    for (const bad of ['3:00-5:00', '24:00-01:00', '03:00', '03:00-03:00', '03:60-04:00']) assert.equal(parseMaintenanceWindow(bad), null, bad);
  });
});

describe('versions', () => {
  test('newer only when it is: patch, minor, major; a release above its prerelease', () => {
    const table: Array<[string, string, boolean]> = [
      ['1.0.1', '1.0.0', true],
      ['1.1.0', '1.0.9', true],
      ['2.0.0', '1.9.9', true],
      ['1.0.0', '1.0.0', false],
      ['0.9.0', '1.0.0', false],
      ['1.0.0', '1.0.0-beta.1', true],
      ['1.0.0-beta.2', '1.0.0', false],
      ['v1.2.0', '1.1.0', true],
    ];
    for (const [candidate, current, newer] of table) assert.equal(isNewerVersion(candidate, current), newer, `${candidate} vs ${current}`);
  });
});

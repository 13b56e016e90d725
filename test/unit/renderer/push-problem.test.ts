// issue 27 item 1: the status line says in words what is wrong with the push (lib/push-problem.ts), in es, pt and en:
// the platform's clock N s ahead or behind, a wrong secret, malformed notifications, or none for N minutes while sales
// were paid.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { translator } from '../../../renderer/src/i18n/translate.ts';
import { pushProblemText } from '../../../renderer/src/lib/push-problem.ts';
import { PUSH_PROBLEM_CODES, type PushProblem } from '../../../shared/push-health.ts';

const say = (locale: 'es-AR' | 'pt-BR' | 'en', problem: PushProblem) => pushProblemText(problem, translator(() => locale).t);

test('a platform clock ahead or behind is named with its seconds, in each language', () => {
  const ahead: PushProblem = { code: 'stale_timestamp', skewSeconds: 400, minutes: null };
  const behind: PushProblem = { code: 'stale_timestamp', skewSeconds: -400, minutes: null };
  assert.match(say('en', ahead), /^Notifications refused: the platform's clock is 400 s ahead\./);
  assert.match(say('es-AR', ahead), /^Notificaciones rechazadas: el reloj de la plataforma está 400 s adelantado\./);
  assert.match(say('pt-BR', ahead), /^Notificações recusadas: o relógio da plataforma está 400 s adiantado\./);
  assert.match(say('en', behind), /400 s behind\./);
  assert.match(say('es-AR', behind), /400 s atrasado\./);
  assert.match(say('pt-BR', behind), /400 s atrasado\./);
  assert.match(say('en', { code: 'stale_timestamp', skewSeconds: null, minutes: null }), /stale timestamps/, 'no skew known: the cause without a number');
});

test('a wrong secret, malformed notifications and none for N minutes, in each language; every code has words and no placeholder is left', () => {
  assert.match(say('en', { code: 'bad_signature', skewSeconds: null, minutes: null }), /wrong secret/);
  assert.match(say('es-AR', { code: 'bad_signature', skewSeconds: null, minutes: null }), /secreto incorrecto/);
  assert.match(say('pt-BR', { code: 'bad_signature', skewSeconds: null, minutes: null }), /segredo incorreto/);
  assert.match(say('en', { code: 'no_notifications', skewSeconds: null, minutes: 12 }), /^No notifications for 12 min while sales were paid\./);
  assert.match(say('es-AR', { code: 'no_notifications', skewSeconds: null, minutes: 12 }), /^Sin notificaciones hace 12 min/);
  assert.match(say('pt-BR', { code: 'no_notifications', skewSeconds: null, minutes: 12 }), /^Sem notificações há 12 min/);
  for (const locale of ['es-AR', 'pt-BR', 'en'] as const) {
    const texts = PUSH_PROBLEM_CODES.map((code) => say(locale, { code, skewSeconds: 30, minutes: 3 }));
    assert.equal(new Set(texts).size, PUSH_PROBLEM_CODES.length, `${locale}: one text per code`);
    for (const text of texts) assert.doesNotMatch(text, /\{\w+\}|push\.problem/, `${locale}: ${text}`);
  }
});

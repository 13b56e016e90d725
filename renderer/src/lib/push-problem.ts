import type { PushProblem } from '../../../shared/push-health.ts';
import type { Translator } from '../i18n/words.ts';

/**
 * issue 27 item 1: the status line's words for a push that does not deliver (Connectivity.pushProblem), in the
 * kiosk's language: the cause when the relay named it (the platform's clock N s ahead or behind, a wrong secret,
 * malformed), or "no notifications for N minutes while sales were paid".
 */
export function pushProblemText(problem: PushProblem, t: Translator['t']): string {
  switch (problem.code) {
    case 'stale_timestamp':
      if (problem.skewSeconds === null || problem.skewSeconds === 0) return t('push.problem.stale');
      return problem.skewSeconds > 0 ? t('push.problem.staleAhead', { seconds: problem.skewSeconds }) : t('push.problem.staleBehind', { seconds: -problem.skewSeconds });
    case 'bad_signature':
      return t('push.problem.badSignature');
    case 'malformed':
      return t('push.problem.malformed');
    case 'no_notifications':
      return t('push.problem.noNotifications', { minutes: problem.minutes ?? 1 });
  }
}

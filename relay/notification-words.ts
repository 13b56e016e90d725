import type { NotificationHealth } from '../shared/push-health.ts';

// issue 27 item 1: the relay's screen (the fleet page) says in words what is wrong with the platform's notifications, in
// the three languages of the stores it serves (es, pt, en). The kiosk words the same problems in its own catalog
// (renderer/src/i18n/common.ts, push.problem.*).

export interface Sentence {
  lang: 'en' | 'es' | 'pt';
  text: string;
}

/** The sentences for the relay's current problem, or none when the newest notification was accepted. */
export function notificationProblemSentences(health: NotificationHealth): Sentence[] {
  switch (health.problem) {
    case null:
      return [];
    case 'stale_timestamp': {
      const skew = health.clock_skew_s ?? 0;
      const s = Math.abs(skew);
      if (skew >= 0) {
        return [
          { lang: 'en', text: `Notifications refused: the platform's clock is ${s} s ahead of this relay's (stale timestamps). Check the relay server's clock (NTP).` },
          { lang: 'es', text: `Notificaciones rechazadas: el reloj de la plataforma está ${s} s adelantado respecto del de este relay (marcas de tiempo vencidas). Revise el reloj del servidor del relay (NTP).` },
          { lang: 'pt', text: `Notificações recusadas: o relógio da plataforma está ${s} s adiantado em relação ao deste relay (carimbos de tempo vencidos). Verifique o relógio do servidor do relay (NTP).` },
        ];
      }
      return [
        { lang: 'en', text: `Notifications refused: the platform's clock is ${s} s behind this relay's (stale timestamps). Check the relay server's clock (NTP).` },
        { lang: 'es', text: `Notificaciones rechazadas: el reloj de la plataforma está ${s} s atrasado respecto del de este relay (marcas de tiempo vencidas). Revise el reloj del servidor del relay (NTP).` },
        { lang: 'pt', text: `Notificações recusadas: o relógio da plataforma está ${s} s atrasado em relação ao deste relay (carimbos de tempo vencidos). Verifique o relógio do servidor do relay (NTP).` },
      ];
    }
    case 'bad_signature':
      return [
        { lang: 'en', text: "Notifications refused: wrong secret. The platform signs them with a secret this relay does not have; copy the application's webhook secret into the relay's configuration." },
        { lang: 'es', text: 'Notificaciones rechazadas: secreto incorrecto. La plataforma las firma con un secreto que este relay no tiene; copie el secreto de webhooks de la aplicación en la configuración del relay.' },
        { lang: 'pt', text: 'Notificações recusadas: segredo incorreto. A plataforma as assina com um segredo que este relay não tem; copie o segredo de webhooks do aplicativo na configuração do relay.' },
      ];
    case 'malformed':
      return [
        { lang: 'en', text: 'Notifications refused: unsigned or unreadable (no valid x-signature or body). Check the webhook URL and that notifications are signed.' },
        { lang: 'es', text: 'Notificaciones rechazadas: sin firma o ilegibles (sin x-signature o cuerpo válidos). Revise la URL de webhooks y que las notificaciones estén firmadas.' },
        { lang: 'pt', text: 'Notificações recusadas: sem assinatura ou ilegíveis (sem x-signature ou corpo válidos). Verifique a URL de webhooks e se as notificações estão assinadas.' },
      ];
  }
}

/** A kiosk's sales were paid while no notification of its seller came for `minutes` minutes. */
export function noNotificationsSentences(minutes: number): Sentence[] {
  const m = Math.max(1, Math.floor(minutes));
  return [
    { lang: 'en', text: `No notifications for ${m} min while sales were paid.` },
    { lang: 'es', text: `Sin notificaciones hace ${m} min mientras se cobraban ventas.` },
    { lang: 'pt', text: `Sem notificações há ${m} min enquanto vendas eram pagas.` },
  ];
}

import { createHash } from 'node:crypto';
import type { FleetView } from './fleet.ts';
import { noNotificationsSentences, notificationProblemSentences, type Sentence } from './notification-words.ts';

// issue 18 "Fleet page": GET /fleet.html, one self-contained page (no script, no external asset) for an operator's
// browser. Every text it writes is a seller id (digits), a value heartbeatSchema restricted to [A-Za-z0-9._:+-], an
// enum, a number or a timestamp, and records are validated again when read from the store: nothing in it can open a
// tag. The CSP allows this page's one style block (by its hash) and nothing else.

const STYLE = `body{font:15px/1.4 system-ui,sans-serif;margin:1.5rem;color:#1b1b1b}
table{border-collapse:collapse;width:100%;margin-bottom:2rem}th,td{text-align:left;padding:.35rem .6rem;border-bottom:1px solid #ddd}
th{background:#f3f3f3}tr.flagged td{background:#fff1f0}.flag{font-weight:600;color:#a8071a}.muted{color:#666}
.alert{border:2px solid #a8071a;background:#fff1f0;padding:.5rem 1rem;margin-bottom:1.5rem}.alert p{margin:.25rem 0}`;

/** The page's Content-Security-Policy: its own style block and nothing else; no framing, no forms, no base. */
export const FLEET_PAGE_CSP = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

export function renderFleetPage(view: FleetView): string {
  const sections = view.sellers.map((seller) => {
    const rows = seller.kiosks.map((k) => {
      // issue 27: a kiosk whose paid sales came with no notification says so in words, not only as a flag name.
      const quiet = k.no_notifications_min === undefined ? '' : ` ${sentences(noNotificationsSentences(k.no_notifications_min), 'span')}`;
      const flags = k.flags.length > 0 ? `<span class="flag">${k.flags.join(', ')}</span>${quiet}` : '<span class="muted">ok</span>';
      return `<tr${k.flags.length > 0 ? ' class="flagged"' : ''}><td>${k.kiosk_id}</td><td>${k.pos_id}</td><td>${k.version}</td><td>${k.last_heartbeat_at} (${k.seconds_since_heartbeat} s ago)</td><td>${flags}</td><td>${k.connectivity.platform} / ${k.connectivity.relay}</td><td>${k.outbox.queued} / ${k.outbox.failed}</td><td>${k.last_sale_at ?? '—'}</td><td>${k.last_error_code ?? '—'}</td><td>${k.uptime_s} s</td></tr>`;
    });
    return `<h2>Seller ${seller.seller}</h2>
<table><thead><tr><th>Kiosk</th><th>POS</th><th>Version</th><th>Last heartbeat</th><th>Flags</th><th>Platform / relay</th><th>Outbox queued / failed</th><th>Last sale</th><th>Last error</th><th>Uptime</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table>`;
  });
  const body = sections.length > 0 ? sections.join('\n') : '<p class="muted">No kiosk has sent a heartbeat yet.</p>';
  // issue 26: the seller's set-up test from the platform's dashboard ("Simulate notification"), so the operator sees it
  // arrived. Every value was checked against testNotificationSchema (plain ids, digits, an ISO instant) when read.
  const tests = view.test_notifications.map(
    (t) => `<li>test notification received at ${t.received_at} (application ${t.application_id}${t.data_id !== null ? `, Data ID ${t.data_id}` : ''}${t.user_id !== null ? `, user_id ${t.user_id}` : ''}${t.action !== null ? `, ${t.action}` : ''}): acknowledged, nothing streamed to kiosks</li>`,
  );
  const testSection = `<h2>Test notifications</h2>\n${tests.length > 0 ? `<ul>${tests.join('\n')}</ul>` : '<p class="muted">No test notification received.</p>'}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta http-equiv="refresh" content="60">
<title>Kiosk fleet</title><style>${STYLE}</style></head>
<body><h1>Kiosk fleet</h1>
${notificationAlert(view)}<p class="muted">${view.kiosks} kiosks at ${view.generated_at}; silent: no heartbeat for more than ${view.silent_after_s} s; outbox_failed: refunds or cancels the platform refused.</p>
${body}
${testSection}
</body></html>
`;
}

/**
 * issue 27 item 1: the platform's notifications refused now, named in es/pt/en at the top of the page (the texts are
 * the relay's own constants and numbers: nothing to escape).
 */
function notificationAlert(view: FleetView): string {
  if (!view.notifications) return '';
  const words = notificationProblemSentences(view.notifications);
  if (words.length === 0) return '';
  const r = view.notifications.refused;
  return `<div class="alert" role="alert" data-problem="${view.notifications.problem}">${sentences(words, 'p')}<p class="muted">Refused since the relay started: stale timestamp ${r.stale_timestamp}, wrong secret ${r.bad_signature}, malformed ${r.malformed}; last accepted: ${view.notifications.last_accepted_at ?? 'none'}.</p></div>\n`;
}

function sentences(words: Sentence[], tag: 'p' | 'span'): string {
  return words.map((w) => `<${tag} lang="${w.lang}">${w.text}</${tag}>`).join(tag === 'span' ? ' ' : '');
}

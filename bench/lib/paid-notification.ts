// The orders notification the relay benches post (relay-ack, relay-fanout): a paid order of 10.00 on POS1, notified as
// order.processed, in the platform's shape (platform-facts "Webhooks (topic orders)"), written once for both.

export interface PaidNotification {
  /** The application the relay knows the signing secret of (issue 12: a secret speaks for its sellers only). */
  applicationId: string;
  sellerId: string;
  /** seed 2.5: ORD + 26 upper-case letters and digits (the relay refuses any other shape, issue 12). */
  orderId: string;
  requestId: string;
  externalReference: string;
  /** Carried as bench_seq, for a reader that tells the events apart by it. */
  seq?: number;
}

/** The JSON body of the notification, dated now. */
export function paidNotificationBody(n: PaidNotification): string {
  return JSON.stringify({
    action: 'order.processed',
    api_version: 'v1',
    application_id: n.applicationId,
    date_created: new Date().toISOString(),
    id: `ntf-${n.requestId}`,
    live_mode: false,
    type: 'order',
    user_id: n.sellerId,
    ...(n.seq === undefined ? {} : { bench_seq: n.seq }),
    data: { id: n.orderId, external_reference: n.externalReference, status: 'processed', status_detail: 'accredited', total_paid_amount: '10.00', type: 'qr', version: 1, config: { qr: { external_pos_id: 'POS1' } } },
  });
}

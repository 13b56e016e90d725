import type Database from 'better-sqlite3';

export type TrainingResetResult = { ok: true; orders: number; outboxItems: number } | { ok: false; reason: 'busy' };

/**
 * Forgets the sales of a training kiosk (issue 15 "First five minutes": "reset training"): its orders (and issue 29's cash sales), their refunds
 * and cancels (the operations log, the outbox), in one transaction. The catalog, settings, PIN and audit log stay.
 * Refused (`busy`, nothing deleted) while an order can still change or an operation is being sent: the poller or the
 * outbox would write that order or operation back, half of it, after the delete. The caller checks it is training.
 */
export function resetTrainingSales(db: Database.Database): TrainingResetResult {
  return db.transaction((): TrainingResetResult => {
    const open = db.prepare('SELECT 1 FROM open_orders LIMIT 1').get();
    const sending = db.prepare("SELECT 1 FROM operations WHERE state = 'sending' LIMIT 1").get();
    if (open !== undefined || sending !== undefined) return { ok: false, reason: 'busy' };
    const outboxItems = db.prepare("SELECT count(*) AS n FROM operations WHERE kind IN ('refund', 'cancel') AND state <> 'dropped'").get() as { n: number };
    db.prepare('DELETE FROM refund_requests').run();
    db.prepare('DELETE FROM operations').run();
    db.prepare('DELETE FROM sale_lines').run();
    // issue 29: the cash sales too (sales like the orders), with what was given back of them; the shifts stay, and so
    // do their tills' floats, pay-ins and pay-outs.
    db.prepare("DELETE FROM cash_movements WHERE kind IN ('refund', 'return')").run();
    const cash = db.prepare('DELETE FROM cash_sales').run().changes;
    // open_orders is empty (checked above); the FTS triggers forget the references with the rows.
    const orders = db.prepare('DELETE FROM orders').run().changes;
    return { ok: true, orders: orders + cash, outboxItems: outboxItems.n };
  })();
}

// A whole kiosk core in a child process for test/integration/core/crash-approver.test.ts (issue 28 "one record per
// refund or cancel"): composed as the app composes it (compose.ts) over the given data dir, against the test's sandbox,
// connected with a seller's client credentials (the first connect sets the manager PIN), with a cashier signed in. It
// says `ready`, then at once asks, through the KioskApi as a screen does, for a partial refund approved by the manager's
// PIN and for a cancel by the signed-in cashier, and reports each answer; the test SIGKILLs it at some point of that.
// Argument: one JSON object (ApproverChildConfig). Output: one JSON object per line (ApproverChildEvent).
import { compose } from '../../electron/core/compose.ts';
import { MemoryVault } from '../../electron/core/vault/memory-vault.ts';
import { PIN } from './kiosk-cores.ts';

export interface ApproverChildConfig {
  dataDir: string;
  platformUrl: string;
  clientId: string;
  clientSecret: string;
  /** The sandbox's clock at spawn, so the refund window reads the same time as the platform. */
  clockStartMs: number;
  /** A paid order (stored in the data dir's database already) to refund 30.00 of. */
  refundOrderId: string;
  /** An order awaiting payment (stored likewise) to cancel. */
  cancelOrderId: string;
}

export type ApproverChildEvent =
  | { event: 'ready'; cashier: { id: string; name: string } }
  | { event: 'answer'; call: 'refundOrder' | 'cancelOrder'; ok: boolean; code?: string }
  | { event: 'failed'; step: string; message: string };

/** The cashier the child signs in; the manager is the first one, named by the PIN the first connect sets. */
export const CHILD_CASHIER = { name: 'Ana', pin: '1111' };

// Never outlive the test that started this child: its stdin is a pipe from the test, which closes when the test ends.
process.stdin.on('end', () => process.exit(3));
process.stdin.resume();

const config = JSON.parse(process.argv[2] ?? '{}') as ApproverChildConfig;
const realStart = Date.now();
const say = (event: ApproverChildEvent) => process.stdout.write(`${JSON.stringify(event)}\n`);
const must = <T>(step: string, result: { ok: true; value: T } | { ok: false; error: { code: string; message: string } }): T => {
  if (result.ok) return result.value;
  say({ event: 'failed', step, message: `${result.error.code}: ${result.error.message}` });
  process.exit(2);
};

const core = await compose({
  dataDir: config.dataDir,
  platformUrl: config.platformUrl,
  relay: null,
  training: null,
  vault: new MemoryVault(),
  clock: { now: () => config.clockStartMs + (Date.now() - realStart) },
  pollIntervalMs: 200,
});
await core.start();
must('connect', await core.api.connect({ method: 'client_credentials', clientId: config.clientId, clientSecret: config.clientSecret, pin: PIN }));
const cashier = must('addPerson', await core.api.addPerson({ pin: PIN, person: { name: CHILD_CASHIER.name, role: 'cashier', pin: CHILD_CASHIER.pin } }));
must('signIn', await core.api.signIn({ personId: cashier.id, pin: CHILD_CASHIER.pin }));
say({ event: 'ready', cashier: { id: cashier.id, name: CHILD_CASHIER.name } });

const report = (call: 'refundOrder' | 'cancelOrder') => (result: { ok: boolean; error?: { code: string } }) =>
  say({ event: 'answer', call, ok: result.ok, ...(result.ok ? {} : { code: result.error?.code }) });
void core.api.refundOrder({ id: config.refundOrderId, amount: '30.00', pin: PIN, requestId: 'crash-approver-refund' }).then(report('refundOrder'));
void core.api.cancelOrder({ id: config.cancelOrderId }).then(report('cancelOrder'));

// A kiosk outbox worker in a child process for test/reliability/outbox-crash.test.ts: it opens the core's store and
// outbox on the given SQLite file (test/support/core-stack.ts, wired as the app wires them) against the sandbox,
// starts the worker (which re-sends, with their stored keys, whatever a killed predecessor left queued or sending),
// then asks for the refunds it was given. It reports every outbox change on stdout and, unless `finish` is set, keeps
// running until the test SIGKILLs it at a random point; with `finish` it works until the queue is empty and exits 0.
// Argument: one JSON object (CrashChildConfig). Output: one JSON object per line.
import { openCoreStack } from './core-stack.ts';
import { FetchOrdersPort } from './orders-port.ts';
import { formatAmount } from '../../shared/money.ts';

export interface CrashChildConfig {
  db: string;
  baseUrl: string;
  token: string;
  /** The sandbox's clock at spawn, so refund windows and backoff read the same time as the platform. */
  clockStartMs: number;
  /** Refunds a manager asks for in this run (amounts in minor units of the orders' currency, ARS). */
  refunds: Array<{ orderId: string; amountMinor: number }>;
  /** Work until nothing is left to send, report `final`, exit 0. */
  finish: boolean;
}

export type CrashChildEvent =
  | { event: 'ready' }
  | { event: 'items'; count: number }
  | { event: 'refused'; orderId: string; amountMinor: number; message: string }
  | { event: 'final'; pending: number };

// Never outlive the test that started this child: its stdin is a pipe from the test, which closes when the test ends.
process.stdin.on('end', () => process.exit(3));
process.stdin.resume();

const config = JSON.parse(process.argv[2] ?? '{}') as CrashChildConfig;
const realStart = Date.now();
const clock = { now: () => config.clockStartMs + (Date.now() - realStart) };
const say = (event: CrashChildEvent) => process.stdout.write(`${JSON.stringify(event)}\n`);

const stack = openCoreStack(config.db, new FetchOrdersPort(config.baseUrl, config.token), clock, {
  onChange: (items) => say({ event: 'items', count: items.length }),
  retry: { baseMs: 100, maxMs: 1_000 },
  pollIntervalMs: 100,
});
stack.outbox.start();
say({ event: 'ready' });
for (const refund of config.refunds) {
  try {
    await stack.outbox.requestRefund({ orderId: refund.orderId, amount: formatAmount(refund.amountMinor, 'ARS'), approver: null, actor: 'manager-crash-child' });
  } catch (error) {
    say({ event: 'refused', orderId: refund.orderId, amountMinor: refund.amountMinor, message: String(error) });
  }
}
if (config.finish) {
  const deadline = Date.now() + 60_000;
  while (stack.ops.pendingOutbox().length > 0 && Date.now() < deadline) {
    await stack.outbox.kick();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  say({ event: 'final', pending: stack.ops.pendingOutbox().length });
  await stack.close();
  process.exit(0);
}

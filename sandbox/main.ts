import { parseSandboxArgs, SANDBOX_USAGE } from './cli-args.ts';
import { buildSandbox } from './app.ts';
import { DataFileError } from './store/sqlite-persistence.ts';

// Entry point: `npm run sandbox -- --port N [--data FILE]`. Prints one line with the base URL once it accepts requests.
const parsed = parseSandboxArgs(process.argv.slice(2));
if (!parsed.ok) {
  process.stderr.write(`sandbox: ${parsed.error}\n\n${SANDBOX_USAGE}`);
  process.exit(2);
}
if (parsed.args.help) {
  process.stdout.write(SANDBOX_USAGE);
  process.exit(0);
}
const { port, host, data, training, allowHosts, webhookTsAhead } = parsed.args;
const profile = parsed.args.profile ?? 'seed';
let sandbox;
try {
  sandbox = buildSandbox({ ...(data ? { dataFile: data } : {}), allowedHosts: allowHosts, profile, ...(webhookTsAhead !== undefined ? { webhookTsAheadSeconds: webhookTsAhead } : {}) });
} catch (error) {
  // A damaged or foreign data file is a user's problem to fix, so it gets one clear line, not a stack trace.
  const message = error instanceof DataFileError ? error.message : `cannot start: ${(error as Error).message}`;
  process.stderr.write(`sandbox: ${message}\n`);
  process.exit(1);
}
const url = await sandbox.listen(port, host).catch((error: Error & { code?: string }) => {
  process.stderr.write(`sandbox: cannot listen on ${host}:${port}: ${error.code === 'EADDRINUSE' ? 'the port is in use' : error.message}\n`);
  process.exit(1);
});
process.stdout.write(`Platform sandbox listening on ${url}${data ? ` (data: ${data})` : ' (in memory)'}${profile === 'seed' ? '' : ` (profile: ${profile})`}\n`);
if (training) {
  const seller = sandbox.sellers.create({ country_code: 'AR', name: 'Training Store' });
  process.stdout.write(
    [
      'Training mode: a seller was created for you.',
      `  user_id        ${seller.user_id}`,
      `  client_id      ${seller.client_id}`,
      '  client_secret  (see POST /sandbox/sellers to create your own; never printed)',
      `  POS            ${seller.pos.map((p) => p.external_pos_id).join(', ')}`,
      `  payer page     ${url}/pay/<order id>`,
      '',
    ].join('\n'),
  );
}
let stopping = false;
const stop = async (): Promise<void> => {
  if (stopping) return;
  stopping = true;
  await sandbox.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());

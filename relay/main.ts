import { buildRelay } from './app.ts';
import { loadRelayConfig } from './config.ts';
import { RELAY_USAGE } from './config-usage.ts';
import { tokenOwner } from './order-confirmation.ts';

// Entry point: `npm run relay -- --port N --platform-url URL --webhook-secret S --kiosk-key KEY=USER_ID ...`.
// Prints one line with its base URL once it accepts requests. Secrets and keys are never printed.
const loaded = loadRelayConfig(process.argv.slice(2), process.env);
if (!loaded.ok) {
  // One line, so it reads well in a systemd journal; the usage is one --help away.
  process.stderr.write(`relay: ${loaded.error} (run with --help for usage)\n`);
  process.exit(2);
}
if ('help' in loaded) {
  process.stdout.write(RELAY_USAGE);
  process.exit(0);
}
const config = loaded.config;
if (!config.data && !config.redis) {
  process.stderr.write('relay: warning: no --data or --redis given; the log lives in memory and is lost on restart\n');
}
if (config.webhookSecrets.length > 0 && config.kioskKeys.length === 0) {
  // README "Trust model": the legacy secrets speak for the sellers of the kiosk keys, and there are none.
  process.stderr.write('relay: warning: --webhook-secret serves the sellers of the kiosk keys and no --kiosk-key is given; its webhooks will be refused\n');
}
let relay;
try {
  relay = await buildRelay({
    platformUrl: config.platformUrl,
    applications: config.applications,
    webhookSecrets: config.webhookSecrets,
    kioskKeys: config.kioskKeys,
    ...(config.platformToken ? { platformToken: config.platformToken } : {}),
    sellerTokens: config.sellerTokens,
    ...(config.data ? { dataFile: config.data } : {}),
    ...(config.redis ? { redisUrl: config.redis } : {}),
    retentionMs: config.retentionDays * 24 * 3600 * 1000,
    server: config.server,
    ipnLimits: config.ipn,
    metrics: config.metrics,
    ...(config.adminKey ? { adminKey: config.adminKey } : {}),
    // issue 26: "test notification received at …" in the relay's log (stdout, the journal under systemd).
    report: (line) => process.stdout.write(`relay: ${line}\n`),
  });
} catch (error) {
  // The Redis URL may carry a password: name the backend, never print the URL (the error names host:port).
  process.stderr.write(`relay: cannot open the event log (${config.redis ? 'redis' : (config.data ?? 'memory')}): ${(error as Error).message}\n`);
  process.exit(1);
}
const url = await relay.listen(config.port, config.host).catch((error: Error & { code?: string; listener?: string }) => {
  const where = error.listener === 'metrics' ? `${config.metrics.host}:${config.metrics.port} (metrics)` : `${config.host}:${config.port}`;
  process.stderr.write(`relay: cannot listen on ${where}: ${error.code === 'EADDRINUSE' ? 'the port is in use' : error.message}\n`);
  process.exit(1);
});
const applications = config.applications.length + (config.webhookSecrets.length > 0 ? 1 : 0);
// The platform token confirms its own seller's orders too (README "Trust model").
const platformTokenOwner = tokenOwner(config.platformToken);
const sellerTokens = new Set([...Object.keys(config.sellerTokens), ...(platformTokenOwner ? [platformTokenOwner] : [])]).size;
process.stdout.write(
  `Webhook relay listening on ${url} (log: ${config.redis ? 'redis' : (config.data ?? 'memory')}, ${config.kioskKeys.length} kiosk keys, ${config.webhookSecrets.length} webhook secrets, ${applications} applications, ${sellerTokens} seller tokens)\n`,
);
const metricsUrl = relay.metricsUrl();
if (metricsUrl) process.stdout.write(`Metrics on ${metricsUrl}/metrics\n`);
let stopping = false;
const stop = async (): Promise<void> => {
  // A second signal while closing must not close twice; a close that fails must still end the process.
  if (stopping) return;
  stopping = true;
  try {
    await relay.close();
    process.exit(0);
  } catch (error) {
    process.stderr.write(`relay: error while shutting down: ${(error as Error).message}\n`);
    process.exit(1);
  }
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());

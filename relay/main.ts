import { buildRelay } from './app.ts';
import { loadRelayConfig, RELAY_USAGE } from './config.ts';

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
let relay;
try {
  relay = await buildRelay({
    platformUrl: config.platformUrl,
    webhookSecrets: config.webhookSecrets,
    kioskKeys: config.kioskKeys,
    ...(config.platformToken ? { platformToken: config.platformToken } : {}),
    ...(config.data ? { dataFile: config.data } : {}),
    ...(config.redis ? { redisUrl: config.redis } : {}),
    retentionMs: config.retentionDays * 24 * 3600 * 1000,
  });
} catch (error) {
  // The Redis URL may carry a password: name the backend, never print the URL (the error names host:port).
  process.stderr.write(`relay: cannot open the event log (${config.redis ? 'redis' : (config.data ?? 'memory')}): ${(error as Error).message}\n`);
  process.exit(1);
}
const url = await relay.listen(config.port, config.host).catch((error: Error & { code?: string }) => {
  process.stderr.write(`relay: cannot listen on ${config.host}:${config.port}: ${error.code === 'EADDRINUSE' ? 'the port is in use' : error.message}\n`);
  process.exit(1);
});
process.stdout.write(
  `Webhook relay listening on ${url} (log: ${config.redis ? 'redis' : (config.data ?? 'memory')}, ${config.kioskKeys.length} kiosk keys, ${config.webhookSecrets.length} webhook secrets)\n`,
);
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

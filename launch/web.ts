import { runWeb } from './run-web.ts';

// `npm run web -- [--port N] [--no-open] [--data-dir DIR] [--platform-url URL | --training]`: the kiosk without
// Electron (issue 4 "Web shell"). With no platform configured it runs in training mode on the embedded sandbox and
// relay; with one (flag, KIOSK_PLATFORM_URL or <data dir>/config.json) in live mode. Prints one line with the URL.
// The launch itself is launch/run-web.ts; this file is the process around it.
const result = await runWeb(process.argv.slice(2), process.env, {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
});
if ('exitCode' in result) process.exit(result.exitCode);

const running = result;
const stop = async (): Promise<void> => {
  await running.stop();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());

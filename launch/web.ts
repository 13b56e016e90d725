import { monitorEventLoopDelay } from 'node:perf_hooks';
import { runWeb, type RunningWeb } from './run-web.ts';

// `npm run web -- [--port N] [--no-open] [--data-dir DIR] [--platform-url URL | --training]`: the kiosk without
// Electron (issue 4 "Web shell"). With no platform configured it runs in training mode on the embedded sandbox and
// relay; with one (flag, KIOSK_PLATFORM_URL or <data dir>/config.json) in live mode. Prints one line with the URL.
// The launch itself is launch/run-web.ts; this file is the process around it.
// issue 14 "cold start": the shell answers the first screen's reads while the kiosk is still starting, so a stop can be
// asked for then (SIGTERM, Ctrl-C): the start finishes, then the kiosk stops cleanly (exit 0), as a stop after the start
// does; a second signal during the start does not wait.
let running: RunningWeb | null = null;
let stopAsked = false;
const stop = async (): Promise<void> => {
  if (!running) {
    if (stopAsked) process.exit(1);
    stopAsked = true;
    return;
  }
  await running.stop();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
const result = await runWeb(process.argv.slice(2), process.env, {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
});
if ('exitCode' in result) process.exit(result.exitCode);
running = result;
if (stopAsked) await stop();

// issue 14 "kiosk-soak": the bench reads the kiosk's event-loop delay from outside the process. Opt-in only: with
// KIOSK_EVENT_LOOP_REPORT=1, each SIGUSR2 prints one line on stdout with the delay percentiles (ms) since the previous
// report, then starts afresh. The histogram holds whole timer intervals, so the resolution is taken off (an idle loop
// reads 0, not 10 ms). With KIOSK_EVENT_LOOP_REPORT=window the meter runs only between two signals (the first starts
// it, reporting an empty window; the next reports and stops it): its 10 ms timer costs the process 20-40 ms of CPU per
// 30 s, which must not be counted in the idle CPU window of history-scale (issue 14 "Idle").
const meterMode = process.env.KIOSK_EVENT_LOOP_REPORT;
if (meterMode === '1' || meterMode === 'window') {
  const resolutionMs = 10;
  const delay = monitorEventLoopDelay({ resolution: resolutionMs });
  let metering = meterMode === '1';
  if (metering) delay.enable();
  const ms = (ns: number) => Math.max(0, Math.round(ns / 10_000 - resolutionMs * 100) / 100);
  process.on('SIGUSR2', () => {
    process.stdout.write(`event-loop-delay ${JSON.stringify({ p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max), samples: delay.count })}\n`);
    delay.reset();
    if (meterMode === 'window') {
      metering = !metering;
      if (metering) delay.enable();
      else delay.disable();
    }
  });
}

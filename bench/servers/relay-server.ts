// Benchmark server: the webhook relay (issue 3) with its real durable log (a SQLite file) on 127.0.0.1:0 in its own
// process, so its memory per connection can be read on its own (bench/relay-fanout.bench.ts). Settings come from the
// environment the bench sets: BENCH_RELAY_SECRET, BENCH_RELAY_KEY, BENCH_RELAY_USER, BENCH_RELAY_DATA.
import { buildRelay } from '../../relay/app.ts';
import { serveAsChild } from '../lib/child.ts';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set (bench/relay-fanout.bench.ts sets it)`);
  return value;
}

await serveAsChild(async () => {
  const relay = await buildRelay({
    platformUrl: 'http://127.0.0.1:9',
    webhookSecrets: [required('BENCH_RELAY_SECRET')],
    kioskKeys: [{ key: required('BENCH_RELAY_KEY'), userId: required('BENCH_RELAY_USER'), posIds: null }],
    dataFile: required('BENCH_RELAY_DATA'),
  });
  const url = await relay.listen(0, '127.0.0.1');
  return {
    url,
    answer(what) {
      if (what !== 'stats') throw new Error(`unknown question ${what}`);
      return {
        connected: relay.metrics.connectedStreams,
        sent: relay.metrics.get('relay_events_sent_total'),
        appended: relay.metrics.get('relay_events_appended_total'),
        droppedSlow: relay.metrics.get('relay_streams_dropped_total', { reason: 'slow_client' }),
        droppedOther: relay.metrics.get('relay_streams_dropped_total', { reason: 'log_unavailable' }),
      };
    },
    close: () => relay.close(),
  };
});

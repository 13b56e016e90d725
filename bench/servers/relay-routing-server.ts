// Benchmark server: the webhook relay with the fleet of bench/lib/routing-fleet.ts (one application serving every
// seller, one kiosk key per kiosk) on its real durable log, a SQLite file (BENCH_ROUTING_DATA) or Redis
// (BENCH_ROUTING_REDIS), in its own process so its CPU and memory are read on their own (bench/relay-routing.bench.ts).
import { buildRelay } from '../../relay/app.ts';
import { serveAsChild } from '../lib/child.ts';
import { ROUTING_APPLICATION, ROUTING_SECRET, fleetFromEnv, fleetKeys, sellerId } from '../lib/routing-fleet.ts';

await serveAsChild(async () => {
  const fleet = fleetFromEnv();
  const redisUrl = process.env.BENCH_ROUTING_REDIS;
  const relay = await buildRelay({
    platformUrl: 'http://127.0.0.1:9',
    applications: [{ id: ROUTING_APPLICATION, secrets: [ROUTING_SECRET], sellers: Array.from({ length: fleet.sellers }, (_, i) => sellerId(i)) }],
    kioskKeys: fleetKeys(fleet).map(([key, userId]) => ({ key, userId, posIds: null })),
    ...(redisUrl ? { redisUrl } : { dataFile: process.env.BENCH_ROUTING_DATA ?? ':memory:' }),
  });
  const url = await relay.listen(0, '127.0.0.1');
  return {
    url,
    answer(what) {
      if (what === 'cpu') return process.cpuUsage();
      if (what !== 'stats') throw new Error(`unknown question ${what}`);
      return { connected: relay.metrics.connectedStreams, sent: relay.metrics.get('relay_events_sent_total'), appended: relay.metrics.get('relay_events_appended_total') };
    },
    close: () => relay.close(),
  };
});

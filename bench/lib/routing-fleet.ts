// The kiosk fleet of bench/relay-routing.bench.ts (issue 14): S sellers with K kiosk keys each, made the same way in the
// bench and in the servers it measures (bench/servers/relay-routing-server.ts, bench/servers/bare-routing-server.ts).

/** The application whose secret signs every webhook of the bench; it serves every seller of the fleet. */
export const ROUTING_APPLICATION = '7000014';
export const ROUTING_SECRET = 'bench-routing-secret-0123456789abcdef';

export interface Fleet {
  sellers: number;
  kiosksPerSeller: number;
}

/** The user id of seller number `i` (0-based). */
export function sellerId(i: number): string {
  return String(500_000 + i);
}

/** The key of kiosk `k` of seller `i`: at least 16 characters, as the relay requires. */
export function kioskKey(i: number, k: number): string {
  return `bench-routing-${i}-${k}-0123456789abcdef`;
}

/** Every kiosk of the fleet as [key, seller user id]. */
export function fleetKeys(fleet: Fleet): Array<[string, string]> {
  const keys: Array<[string, string]> = [];
  for (let i = 0; i < fleet.sellers; i += 1) for (let k = 0; k < fleet.kiosksPerSeller; k += 1) keys.push([kioskKey(i, k), sellerId(i)]);
  return keys;
}

/** The fleet a server child was started with (BENCH_ROUTING_SELLERS, BENCH_ROUTING_KIOSKS). */
export function fleetFromEnv(): Fleet {
  const sellers = Number(process.env.BENCH_ROUTING_SELLERS);
  const kiosksPerSeller = Number(process.env.BENCH_ROUTING_KIOSKS);
  if (!(sellers > 0) || !(kiosksPerSeller > 0)) throw new Error('BENCH_ROUTING_SELLERS and BENCH_ROUTING_KIOSKS must be set (bench/relay-routing.bench.ts sets them)');
  return { sellers, kiosksPerSeller };
}

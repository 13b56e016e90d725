/** Counters and gauges exposed as Prometheus text on GET /metrics (issue 3). */
export class RelayMetrics {
  readonly #counters = new Map<string, Map<string, number>>();
  readonly #help = new Map<string, { help: string; type: 'counter' | 'gauge' }>();
  /** issue 18: series read when scraped (the fleet's per-kiosk gauges, from the store every relay shares). */
  readonly #collectors: Array<() => Promise<string>> = [];
  connectedStreams = 0;

  constructor() {
    this.#define('relay_notifications_received_total', 'Notifications received, by kind (webhook, ipn).');
    this.#define('relay_notifications_rejected_total', 'Notifications refused, by reason.');
    this.#define('relay_duplicates_total', 'Notifications acknowledged but not appended again, by reason.');
    this.#define('relay_events_appended_total', 'Events appended to the log.');
    this.#define('relay_events_sent_total', 'Events written to kiosk streams.');
    this.#define('relay_streams_dropped_total', 'Kiosk streams closed by the relay, by reason.');
    this.#define('relay_ipn_fetch_failures_total', 'Failed lookups of an IPN resource (each attempt).');
    this.#define('relay_streams_refused_total', 'Kiosk stream requests refused, by reason.');
    this.#define('relay_confirmations_total', 'Order events the relay looked up on the platform with a seller token, by result (verified, refused, unverified).');
    this.#define('relay_events_dropped_total', 'Signed order events not appended because the platform denied the order, by reason.');
    this.#define('relay_connections_refused_total', 'Sockets closed at once because the connection cap was reached.');
    this.#define('relay_test_notifications_total', 'Dashboard "Simulate notification"s acknowledged as tests (issue 26): recorded, never streamed.');
    this.#define('relay_requests_too_large_total', 'Requests other than notifications and heartbeats refused with 413, by route (issue 27).');
    this.#define('relay_admin_auth_refused_total', 'Requests for the fleet, /metrics or /notifications/health refused for their credential, by reason (wrong_key, rate_limited; issues 27, 28).');
    this.#define('relay_heartbeats_total', 'Kiosk heartbeats received, by result (recorded, or why refused).');
    this.#help.set('relay_streams_connected', { help: 'Kiosk streams connected now.', type: 'gauge' });
  }

  inc(name: string, labels: Record<string, string> = {}, by = 1): void {
    const key = labelKey(labels);
    const series = this.#counters.get(name) ?? new Map<string, number>();
    series.set(key, (series.get(key) ?? 0) + by);
    this.#counters.set(name, series);
  }

  get(name: string, labels: Record<string, string> = {}): number {
    return this.#counters.get(name)?.get(labelKey(labels)) ?? 0;
  }

  render(): string {
    const lines: string[] = [];
    for (const [name, meta] of this.#help) {
      lines.push(`# HELP ${name} ${meta.help}`, `# TYPE ${name} ${meta.type}`);
      if (name === 'relay_streams_connected') {
        lines.push(`${name} ${this.connectedStreams}`);
        continue;
      }
      const series = this.#counters.get(name);
      if (!series || series.size === 0) lines.push(`${name} 0`);
      else for (const [labels, value] of series) lines.push(labels ? `${name}{${labels}} ${value}` : `${name} ${value}`);
    }
    return lines.join('\n') + '\n';
  }

  /** Adds series that exposition() reads at each scrape, after the counters. */
  addCollector(collect: () => Promise<string>): void {
    this.#collectors.push(collect);
  }

  /** The whole /metrics text: render() plus every collector's series. */
  async exposition(): Promise<string> {
    const parts = await Promise.all(this.#collectors.map((collect) => collect()));
    return this.render() + parts.join('');
  }

  #define(name: string, help: string): void {
    this.#help.set(name, { help, type: 'counter' });
  }
}

/** One series key for inc() and get() alike: a label value with a quote, backslash or newline must read back the same. */
function labelKey(labels: Record<string, string>): string {
  return Object.entries(labels)
    .map(([k, v]) => `${k}="${v.replace(/["\\\n]/g, '_')}"`)
    .join(',');
}

// The relay's --help text (README "Settings" has the full table): every flag, config file key and RELAY_* variable.

export const RELAY_USAGE = `Usage: npm run relay -- --port N --platform-url URL
         (--application ID=SECRET[,SECRET2]:SELLER1[,SELLER2] [...] | --webhook-secret S [--webhook-secret S2 ...])
         --kiosk-key KEY=USER_ID[:POS1,POS2...] [...] [--data FILE | --redis URL]
         [--platform-token TOKEN] [--seller-token USER_ID=TOKEN ...] [--host ADDRESS] [--retention-days N]
         [--headers-timeout-ms N] [--request-timeout-ms N] [--keep-alive-timeout-ms N] [--max-connections N]
         [--ipn-concurrency N] [--ipn-queue N] [--ipn-rate N]
         [--metrics-host ADDRESS --metrics-port N] [--metrics-token TOKEN | --metrics-open] [--admin-key KEY] [--config FILE]

--application: a webhook secret binds to one application and speaks only for its sellers (user ids).
--webhook-secret: the legacy single application, whose sellers are the sellers of the kiosk keys.
--seller-token: the relay confirms that seller's order events with GET /v1/orders/{id} before streaming them.
--admin-key: the operator's key for the fleet page (GET /fleet, /fleet.html); not a kiosk key.
--metrics-open: serve /metrics without a credential (it shows the fleet); else it asks for the metrics token or admin key.

Every setting can also come from a JSON config file (--config FILE or RELAY_CONFIG) with the keys
port, host, platformUrl, data, applications[{id, secrets[], sellers[]}], webhookSecrets[], kioskKeys[], platformToken,
sellerTokens{USER_ID: TOKEN}, redis, retentionDays, headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs,
maxConnections, ipnConcurrency, ipnQueue, ipnRatePerSecond, metricsHost, metricsPort, metricsToken, metricsOpen (true), adminKey,
or from the environment: RELAY_PORT, RELAY_HOST, RELAY_PLATFORM_URL, RELAY_DATA, RELAY_APPLICATIONS (space-separated
ID=SECRET[,SECRET2]:SELLER1[,SELLER2] entries), RELAY_WEBHOOK_SECRETS (comma-separated), RELAY_KIOSK_KEYS
(space-separated KEY=USER_ID[:POS1,POS2] entries), RELAY_PLATFORM_TOKEN, RELAY_SELLER_TOKENS (space-separated
USER_ID=TOKEN entries), RELAY_REDIS_URL, RELAY_RETENTION_DAYS, RELAY_HEADERS_TIMEOUT_MS, RELAY_REQUEST_TIMEOUT_MS,
RELAY_KEEP_ALIVE_TIMEOUT_MS, RELAY_MAX_CONNECTIONS, RELAY_IPN_CONCURRENCY, RELAY_IPN_QUEUE, RELAY_IPN_RATE,
RELAY_METRICS_HOST, RELAY_METRICS_PORT, RELAY_METRICS_TOKEN, RELAY_METRICS_OPEN (1 or true), RELAY_ADMIN_KEY. Flags win over the environment, which wins over the file.
`;

import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateDir, ensurePrivateFile, PRIVATE_FILE_MODE, tightenFiles } from '../electron/core/host/private-files.ts';
import type { TrainingPort } from '../electron/core/ports.ts';
import { buildSandbox, type Sandbox } from '../sandbox/app.ts';
import { buildRelay, type Relay } from '../relay/app.ts';
import { ioTurn } from './io-turn.ts';
import { readIdentity, sandboxCustomer, TRAINING_DEFAULTS, type TrainingPorts } from './training-ports.ts';

export { sandboxCustomer };

/** What the kiosk needs to run against the embedded platform. The client secret is handed over in memory only. */
export interface EmbeddedPlatform {
  platformUrl: string;
  relayUrl: string;
  clientId: string;
  clientSecret: string;
  userId: string;
  countryCode: string;
  posId: string;
  kioskKey: string;
  /** The training application's webhook secret (the sandbox signs with it, the relay checks it): for log redaction. */
  webhookSecret: string;
  /** The kiosk core's `training` option: this seller, and its customer paying through the sandbox. */
  training: TrainingPort;
  sandbox: Sandbox;
  relay: Relay;
  close(): Promise<void>;
}

/**
 * issue 4 "Zero-config default": with no platform configured, start the sandbox and the relay in-process on free
 * ports, create a seller and POS (first run only), point the sandbox's webhook at the relay, issue a kiosk key. State
 * lives under dataDir so training orders survive a restart. The relay reads the sandbox's clock, so moving the
 * training clock (to show an expiry) does not make its signatures look stale.
 *
 * issue 12: the training secrets stay in this folder. The sandbox's data file holds the training application (its
 * client secret and webhook secret) and the tokens it issued; training-identity.json holds ids only; the relay's file
 * holds delivered events (no secrets). The kiosk key is made anew at each start and kept in memory. The folder is 0700
 * and every file in it 0600: each SQLite file is made 0600 before it is opened, because SQLite gives its -wal and -shm
 * files the main file's mode (see electron/core/store/database.ts); any left with looser modes are tightened.
 */
/**
 * issue 14 "cold start": with `ports` (launch/training-ports.ts), the sandbox and the relay answer on those servers,
 * already listening, and the relay takes their kiosk key: the kiosk was composed with them before this ran. A seller
 * made here gets `countryCode` and `posId` (TRAINING_DEFAULTS otherwise), the ones the kiosk was composed with.
 */
export async function startEmbeddedPlatform(options: { dataDir: string | null; countryCode?: string; posId?: string; ports?: TrainingPorts }): Promise<EmbeddedPlatform> {
  if (options.dataDir) ensurePrivateDir(options.dataDir);
  const file = (name: string) => (options.dataDir ? join(options.dataDir, name) : null);
  const sandboxFile = file('training-sandbox.sqlite');
  if (sandboxFile) ensurePrivateFile(sandboxFile);
  const ports = options.ports;
  const sandbox = buildSandbox({ ...(sandboxFile ? { dataFile: sandboxFile } : {}), ...(ports ? { boundServer: ports.sandboxServer } : {}) });
  // issue 14 "cold start": the kiosk's page loads while this runs; the shell answers it between the steps.
  await ioTurn();
  const platformUrl = await sandbox.listen(0);
  await ioTurn();

  const identityFile = file('training-identity.json');
  let identity = identityFile ? readIdentity(identityFile) : null;
  if (identity && !sandbox.state.applications.has(identity.client_id)) identity = null;
  if (!identity) {
    const posId = options.posId ?? TRAINING_DEFAULTS.posId;
    const seller = sandbox.sellers.create({ country_code: options.countryCode ?? TRAINING_DEFAULTS.countryCode, name: 'Training Store', pos: [posId] });
    identity = { user_id: seller.user_id, client_id: seller.client_id, country_code: seller.country_code, pos_id: posId };
    // Ids only: the client secret stays inside the sandbox's own data file (both in this folder).
    if (identityFile) writeFileSync(identityFile, JSON.stringify(identity, null, 2), { mode: PRIVATE_FILE_MODE });
  }
  const application = sandbox.state.applications.get(identity.client_id);
  if (!application) throw new Error('the training application is missing from the sandbox data');

  const webhookSecret = (application.webhook_secret ??= randomBytes(32).toString('hex'));
  sandbox.state.applications.put(application.client_id, application);
  const kioskKey = ports?.kioskKey ?? randomBytes(24).toString('hex');
  const relayFile = file('training-relay.sqlite');
  if (relayFile) ensurePrivateFile(relayFile);
  const relay = await buildRelay({
    platformUrl,
    webhookSecrets: [webhookSecret],
    kioskKeys: [{ key: kioskKey, userId: identity.user_id, posIds: null }],
    ...(relayFile ? { dataFile: relayFile } : {}),
    ...(ports ? { boundServer: ports.relayServer } : {}),
    clock: { now: () => sandbox.clock.now() },
  });
  await ioTurn();
  const relayUrl = await relay.listen(0);
  // Files an older version left with looser modes (the ones made now already have 0600).
  if (options.dataDir) tightenFiles(...[sandboxFile, relayFile].flatMap((f) => (f ? [`${f}-wal`, `${f}-shm`] : [])), ...(identityFile ? [identityFile] : []));
  application.webhook_url = `${relayUrl}/notifications/webhook`;
  sandbox.state.applications.put(application.client_id, application);

  return {
    platformUrl,
    relayUrl,
    clientId: identity.client_id,
    clientSecret: application.client_secret,
    userId: identity.user_id,
    countryCode: identity.country_code,
    posId: identity.pos_id,
    kioskKey,
    webhookSecret,
    training: {
      clientId: identity.client_id,
      clientSecret: application.client_secret,
      countryCode: identity.country_code,
      posId: identity.pos_id,
      simulatePayment: sandboxCustomer(platformUrl),
    },
    sandbox,
    relay,
    async close() {
      await relay.close();
      await sandbox.close();
    },
  };
}

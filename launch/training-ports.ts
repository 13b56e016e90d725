import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Server } from 'node:http';
import { closeBoundServer, listen } from '../node-common/listen.ts';
import { sandboxServer } from '../sandbox/server-limits.ts';
import { relayServer } from '../relay/server-limits.ts';
import type { TrainingPort } from '../electron/core/ports.ts';

/**
 * issue 14 "cold start": the training platform's addresses, bound before its code is loaded. The kiosk's core is
 * composed with them (and with this launch's kiosk key) while nothing answers on them yet; the embedded sandbox and
 * relay are built on these servers after the kiosk's first screen (launch/embedded-platform.ts `ports`), and the core
 * makes its first call to them only when it starts, after that. Nothing here loads fastify (start-modules test).
 */
export interface TrainingPorts {
  platformUrl: string;
  relayUrl: string;
  sandboxServer: Server;
  relayServer: Server;
  /** The relay's key for this kiosk: made anew at each start and kept in memory (issue 12). */
  kioskKey: string;
  /** Closes both servers (nothing else closes them when the platform never started on them). */
  close(): Promise<void>;
}

/** Binds the sandbox's and the relay's servers on free ports of 127.0.0.1; rejects with the listen error, none left open. */
export async function bindTrainingPorts(): Promise<TrainingPorts> {
  const sandbox = sandboxServer();
  const relay = relayServer();
  const close = async () => {
    await Promise.all([closeBoundServer(sandbox), closeBoundServer(relay)]);
  };
  try {
    const [platformUrl, relayUrl] = await Promise.all([listen(sandbox, 0, '127.0.0.1', 'the sandbox'), listen(relay, 0, '127.0.0.1', 'the relay')]);
    return { platformUrl, relayUrl, sandboxServer: sandbox, relayServer: relay, kioskKey: randomBytes(24).toString('hex'), close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The training seller's ids (training-identity.json in the training folder; ids only, issue 12). */
export interface TrainingIdentity {
  user_id: string;
  client_id: string;
  country_code: string;
  pos_id: string;
}

/** The training seller a first run creates: its country and point of sale. */
export const TRAINING_DEFAULTS = { countryCode: 'AR', posId: 'CAJA-1' } as const;

/**
 * The training seller's country and point of sale before the sandbox is read (issue 14 "cold start": the core is
 * composed with them): the identity file's, or what a first run creates. startEmbeddedPlatform creates a seller with
 * these when the file is missing or names an application the sandbox no longer has, so they are the platform's.
 */
export function trainingSellerHint(trainingDir: string | null): { countryCode: string; posId: string } {
  const identity = trainingDir ? readIdentity(join(trainingDir, 'training-identity.json')) : null;
  return identity ? { countryCode: identity.country_code, posId: identity.pos_id } : TRAINING_DEFAULTS;
}

/** The identity file, or null when there is none or it is damaged. */
export function readIdentity(path: string): TrainingIdentity | null {
  if (!existsSync(path)) return null;
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as Partial<TrainingIdentity>;
    if (typeof value.user_id === 'string' && typeof value.client_id === 'string' && typeof value.country_code === 'string' && typeof value.pos_id === 'string') {
      return value as TrainingIdentity;
    }
  } catch {
    // A damaged identity file means a fresh training seller; the old training orders stay in the sandbox file.
  }
  return null;
}

/**
 * Training's "customer pays" (issue 13: injected into the core from here, which knows the sandbox): the sandbox's
 * control API pays or declines the order as its customer would (sandbox README "Control API"). Rejects when the
 * sandbox cannot be reached or refuses (an unknown order, one no longer awaiting payment).
 */
export function sandboxCustomer(platformUrl: string, fetchImpl: typeof fetch = fetch): TrainingPort['simulatePayment'] {
  return async (orderId, outcome) => {
    const response = await fetchImpl(`${platformUrl}/sandbox/orders/${encodeURIComponent(orderId)}/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ outcome }),
    });
    // Read to the end either way, so the connection goes back to the pool.
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`the sandbox did not take the payment (${response.status})`);
  };
}

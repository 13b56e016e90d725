// A real keychain for the live-mode tests, private to this test process: a D-Bus session bus of its own and
// gnome-keyring's Secret Service on it, unlocked with a throwaway password, in a temp dir. Live mode refuses to run
// without a keychain (issue 4), and this way its tests neither skip on a machine without a desktop session nor touch
// the machine's own keyring. Where the two programs are missing, a Secret Service already reachable is used instead.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KeytarVault } from '../../electron/core/vault/keytar-vault.ts';

export interface TestKeychain {
  /** The environment a child process needs to reach the same keychain. */
  env: NodeJS.ProcessEnv;
  close(): Promise<void>;
}

const DBUS_DAEMON = '/usr/bin/dbus-daemon';
const GNOME_KEYRING = '/usr/bin/gnome-keyring-daemon';

/**
 * A keychain this process's keytar talks to (DBUS_SESSION_BUS_ADDRESS is set in process.env, which libsecret reads on
 * its first call, so call this before anything touches the vault). Resolves with `{skip: reason}` when there is none.
 */
export async function keychainForTests(): Promise<TestKeychain | { skip: string }> {
  if (existsSync(DBUS_DAEMON) && existsSync(GNOME_KEYRING)) return startPrivateKeyring();
  const problem = await probe();
  return problem === null ? { env: { ...process.env }, close: async () => undefined } : { skip: `no Secret Service and no gnome-keyring to start one (${problem})` };
}

async function startPrivateKeyring(): Promise<TestKeychain | { skip: string }> {
  const home = mkdtempSync(join(tmpdir(), 'kiosk-keyring-'));
  const children: ChildProcess[] = [];
  const ambientBus = process.env.DBUS_SESSION_BUS_ADDRESS;
  const close = async () => {
    for (const child of children.reverse()) await stop(child);
    rmSync(home, { recursive: true, force: true });
  };
  // A keyring that failed to start must not leave this process (and the children given its env) pointed at a bus
  // that is gone: "Could not connect: No such file or directory" is then all a child says.
  const giveUp = async () => {
    await close();
    if (ambientBus === undefined) delete process.env.DBUS_SESSION_BUS_ADDRESS;
    else process.env.DBUS_SESSION_BUS_ADDRESS = ambientBus;
  };
  try {
    const bus = spawn(DBUS_DAEMON, ['--session', '--print-address=1', '--nofork', '--nopidfile'], { stdio: ['ignore', 'pipe', 'ignore'] });
    children.push(bus);
    const address = await new Promise<string>((resolve, reject) => {
      let text = '';
      const timer = setTimeout(() => reject(new Error('dbus-daemon printed no address')), 10_000);
      bus.stdout?.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes('\n')) {
          clearTimeout(timer);
          resolve(text.trim());
        }
      });
      bus.once('exit', (code) => reject(new Error(`dbus-daemon exited (${code})`)));
    });
    process.env.DBUS_SESSION_BUS_ADDRESS = address;
    const keyring = spawn(GNOME_KEYRING, ['--unlock', '--components=secrets', '--foreground'], {
      env: { ...process.env, XDG_DATA_HOME: home, XDG_RUNTIME_DIR: home, HOME: home },
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    children.push(keyring);
    // The throwaway password that unlocks the fresh login keyring.
    keyring.stdin?.end('kiosk-test-keyring');
    // Generous: on a loaded 2-core CI machine, with another live-mode file starting Chromium beside it, the fresh
    // keyring has taken more than 15 s to take its first write.
    const deadline = Date.now() + 60_000;
    let problem = await probe();
    while (problem !== null && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      problem = await probe();
    }
    if (problem !== null) {
      await giveUp();
      return { skip: `the private keyring did not answer: ${problem}` };
    }
    return { env: { ...process.env }, close };
  } catch (error) {
    await giveUp();
    return { skip: `no private keyring: ${(error as Error).message}` };
  }
}

/**
 * Null once the keychain takes a write: a read answers as soon as the service is up, but the fresh login collection
 * is unlocked a moment later, and until then a write fails with "Cannot create an item in a locked collection".
 */
async function probe(): Promise<string | null> {
  try {
    const vault = new KeytarVault({ profile: 'probe', timeoutMs: 5_000 });
    await vault.set('access_token', 'TEST-probe-write-0000000000000000');
    await vault.delete('access_token');
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

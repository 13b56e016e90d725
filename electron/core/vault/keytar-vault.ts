import { VaultUnavailableError } from '../ports.ts';
import type { SecretName, TokenVault } from '../ports.ts';

/** The part of keytar the vault uses; tests pass fakes of it. */
export interface KeytarLike {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

/** The keychain entries' service name; each secret is one account under it. */
export const KEYCHAIN_SERVICE = 'qr-counter-kiosk';

/** What a person can do when there is no keychain to talk to (issue 4: "a clear error that says what to install"). */
const KEYCHAIN_INSTALL_HINT =
  'On Linux, install and unlock a Secret Service (sudo apt-get install gnome-keyring dbus-x11) and run the kiosk in a ' +
  'desktop session; on Windows and macOS the system keychain is used.';

// A person may have to type the keyring password into an unlock prompt, so the limit is generous; it only keeps the
// kiosk from waiting forever on a keychain that never answers.
const DEFAULT_TIMEOUT_MS = 60_000;

export interface KeytarVaultOptions {
  /** Suffix of every account name, so tests and side-by-side installs keep separate entries. */
  profile?: string;
  /** Loads keytar; the default imports the native module on first use, so a missing build is an error, not a crash. */
  loadKeytar?: () => Promise<KeytarLike>;
  /** How long one keychain call may take before it fails with VaultUnavailableError. */
  timeoutMs?: number;
}

/** Imports keytar (a native module, CommonJS) on demand. Rejects when it is not installed or was not built. */
async function importKeytar(): Promise<KeytarLike> {
  const mod = (await import('keytar')) as Partial<KeytarLike> & { default?: Partial<KeytarLike> };
  const api = mod.default ?? mod;
  if (typeof api.getPassword !== 'function' || typeof api.setPassword !== 'function' || typeof api.deletePassword !== 'function') {
    throw new Error('the keytar module does not export getPassword, setPassword and deletePassword');
  }
  return api as KeytarLike;
}

/**
 * The token vault on the OS keychain through keytar (issue 4): the Secret Service on Linux, the Keychain on macOS, the
 * Credential Vault on Windows. Every failure — keytar missing, no keychain service, a locked keyring, a call that never
 * answers — rejects with VaultUnavailableError whose message says what happened and what to do. No message ever
 * contains a secret value.
 */
export class KeytarVault implements TokenVault {
  readonly kind = 'keychain' as const;
  readonly service = KEYCHAIN_SERVICE;
  readonly #profile: string | null;
  readonly #load: () => Promise<KeytarLike>;
  readonly #timeoutMs: number;
  #keytar: Promise<KeytarLike> | null = null;

  constructor(options: KeytarVaultOptions = {}) {
    if (options.profile !== undefined && !/^[A-Za-z0-9._-]{1,64}$/.test(options.profile)) {
      throw new TypeError('a vault profile is 1 to 64 letters, digits, dots, dashes or underscores');
    }
    this.#profile = options.profile ?? null;
    this.#load = options.loadKeytar ?? importKeytar;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /** The keychain account that holds one secret: its name, plus `@profile` when the vault has a profile. */
  account(name: SecretName): string {
    return this.#profile === null ? name : `${name}@${this.#profile}`;
  }

  async get(name: SecretName): Promise<string | null> {
    return this.#call(`read the ${name}`, null, (k) => k.getPassword(this.service, this.account(name)));
  }

  /** Stores or replaces a secret. Rejects an empty value (keytar cannot store one, and a token is never empty). */
  async set(name: SecretName, value: string): Promise<void> {
    if (value.length === 0) throw new TypeError(`refusing to store an empty ${name}`);
    await this.#call(`store the ${name}`, value, (k) => k.setPassword(this.service, this.account(name), value));
  }

  /** Deleting a secret that is not there is not an error. */
  async delete(name: SecretName): Promise<void> {
    await this.#call(`delete the ${name}`, null, (k) => k.deletePassword(this.service, this.account(name)));
  }

  /**
   * Checks that the keychain answers, with a harmless read of the access token's entry (the read the kiosk makes at
   * start anyway). Resolves when it does; rejects with VaultUnavailableError when it does not.
   */
  async probe(): Promise<void> {
    await this.get('access_token');
  }

  #keytarModule(): Promise<KeytarLike> {
    this.#keytar ??= this.#load().catch((error: unknown) => {
      this.#keytar = null;
      throw new VaultUnavailableError(
        `The keychain module (keytar) could not be loaded (${describe(error, null)}). Reinstall the kiosk; when ` +
          'building from source, install libsecret and a compiler first (sudo apt-get install libsecret-1-dev python3 ' +
          'make g++) and run npm ci so keytar is built.',
        { cause: error },
      );
    });
    return this.#keytar;
  }

  async #call<T>(what: string, secret: string | null, call: (keytar: KeytarLike) => Promise<T>): Promise<T> {
    const keytar = await this.#keytarModule();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new KeychainTimeout(this.#timeoutMs)), this.#timeoutMs);
    });
    try {
      // keytar throws synchronously on bad arguments; the async wrapper turns that into a rejection too.
      return await Promise.race([(async () => call(keytar))(), timeout]);
    } catch (error) {
      throw explain(what, error, secret);
    } finally {
      clearTimeout(timer);
    }
  }
}

class KeychainTimeout extends Error {
  constructor(readonly ms: number) {
    super(`no answer within ${Math.round(ms / 1000)} s`);
  }
}

const UNREACHABLE = [
  /autolaunch/i,
  /could not connect/i,
  /dbus-launch/i,
  /\$DISPLAY/,
  /ServiceUnknown/i,
  /was not provided by any \.service files/i,
  /org\.freedesktop\.secrets/i,
  /secret service/i,
  /Failed to connect to socket/i,
  /No such interface/i,
];
const LOCKED = [/locked/i, /prompt/i, /dismissed/i, /cancel/i];

/** Turns a keytar failure into the VaultUnavailableError a person can act on. */
function explain(what: string, error: unknown, secret: string | null): VaultUnavailableError {
  const cause = describe(error, secret);
  const echoes = error instanceof Error && secret !== null && `${error.message}\n${error.stack ?? ''}`.includes(secret);
  const options: ErrorOptions = error instanceof Error && !echoes ? { cause: error } : {};
  if (error instanceof KeychainTimeout) {
    return new VaultUnavailableError(
      `The keychain did not answer when asked to ${what} (${cause}); it may be waiting for an unlock prompt nobody can ` +
        `see. Unlock the keychain (log in to the desktop session), then try again. ${KEYCHAIN_INSTALL_HINT}`,
    );
  }
  if (UNREACHABLE.some((pattern) => pattern.test(cause))) {
    return new VaultUnavailableError(`No keychain service is reachable (${cause}). ${KEYCHAIN_INSTALL_HINT}`, options);
  }
  if (LOCKED.some((pattern) => pattern.test(cause))) {
    return new VaultUnavailableError(
      `The keychain is locked, so the kiosk could not ${what} (${cause}). Unlock it — log in to the desktop session, ` +
        'or unlock the "login" keyring in the system\'s passwords app — and try again.',
      options,
    );
  }
  return new VaultUnavailableError(`The keychain could not ${what} (${cause}). ${KEYCHAIN_INSTALL_HINT}`, options);
}

/**
 * The cause of a failure in one line, for a message a person reads. A secret being stored is cut out should the native
 * layer ever echo it (and explain then does not keep the original error as `cause`).
 */
function describe(error: unknown, secret: string | null): string {
  let text = error instanceof Error ? error.message : String(error);
  if (secret !== null && secret.length > 0) text = text.split(secret).join('[redacted]');
  text = text.replace(/\s+/g, ' ').trim();
  if (text.length === 0) text = 'no details';
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

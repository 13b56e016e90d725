import type { SecretName, TokenVault } from '../ports.ts';

/**
 * Secrets kept in this process only (issue 4): the training (sandbox) mode's fallback when no keychain is reachable,
 * and the vault of unit tests. Everything is gone when the process exits, so a real kiosk never uses it.
 */
export class MemoryVault implements TokenVault {
  readonly kind = 'memory' as const;
  readonly #secrets = new Map<SecretName, string>();

  async get(name: SecretName): Promise<string | null> {
    return this.#secrets.get(name) ?? null;
  }

  /** Rejects an empty value, as the keychain does: a token or secret is never empty. */
  async set(name: SecretName, value: string): Promise<void> {
    if (value.length === 0) throw new TypeError(`refusing to store an empty ${name}`);
    this.#secrets.set(name, value);
  }

  /** Deleting a secret that is not there is not an error. */
  async delete(name: SecretName): Promise<void> {
    this.#secrets.delete(name);
  }
}

import type { SecretName, TokenVault } from '../../electron/core/ports.ts';

/** A vault in memory that exposes what it holds and remembers every secret it ever held, for "no secret leaked" checks. */
export class RecordingVault implements TokenVault {
  readonly kind = 'memory' as const;
  readonly items = new Map<SecretName, string>();
  readonly everHeld = new Set<string>();
  async get(name: SecretName) {
    return this.items.get(name) ?? null;
  }
  async set(name: SecretName, value: string) {
    this.items.set(name, value);
    this.everHeld.add(value);
  }
  async delete(name: SecretName) {
    this.items.delete(name);
  }
}

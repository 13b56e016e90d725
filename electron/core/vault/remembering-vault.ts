import type { SecretName, TokenVault } from '../ports.ts';

/** Enough for every secret name several times over (tokens rotate on each refresh); the oldest are dropped first. */
const DEFAULT_LIMIT = 64;

/**
 * A vault that remembers, in this process's memory only, every secret value read from or written to the vault it wraps
 * (issue 12: "the logger is given the live secret list"). Every secret the core holds enters it through the vault (the
 * session stores tokens before it uses them, the relay key and the PIN pepper are read from it), so `known()` is the
 * list the logger redacts, read synchronously on every line. A deleted secret stays known: copies of it may still be
 * in memory, and hiding it costs nothing. Behaves exactly as the wrapped vault otherwise, failures included.
 */
export class RememberingVault implements TokenVault {
  readonly #inner: TokenVault;
  readonly #limit: number;
  readonly #known = new Set<string>();

  constructor(inner: TokenVault, limit = DEFAULT_LIMIT) {
    this.#inner = inner;
    this.#limit = limit;
  }

  get kind(): TokenVault['kind'] {
    return this.#inner.kind;
  }

  async get(name: SecretName): Promise<string | null> {
    const value = await this.#inner.get(name);
    if (value !== null) this.#remember(value);
    return value;
  }

  /** Remembered before it is stored: a failing keychain may echo the value in its error, which may get logged. */
  async set(name: SecretName, value: string): Promise<void> {
    this.#remember(value);
    await this.#inner.set(name, value);
  }

  async delete(name: SecretName): Promise<void> {
    await this.#inner.delete(name);
  }

  /** The secret values seen so far, newest last. */
  known(): string[] {
    return [...this.#known];
  }

  #remember(value: string): void {
    if (value.length === 0) return;
    // Re-inserting moves a value to the end, so the values in use are the last to be dropped.
    this.#known.delete(value);
    this.#known.add(value);
    while (this.#known.size > this.#limit) this.#known.delete(this.#known.values().next().value as string);
  }
}

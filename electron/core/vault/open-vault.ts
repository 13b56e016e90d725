import { VaultUnavailableError } from '../ports.ts';
import type { TokenVault } from '../ports.ts';
import { KeytarVault } from './keytar-vault.ts';
import type { KeytarVaultOptions } from './keytar-vault.ts';
import { MemoryVault } from './memory-vault.ts';

/** What a memory vault means for the manager PIN, said with the warning. */
export const MEMORY_PIN_NOTE = "The manager PIN's key is kept in memory too, so the manager PIN must be set again after each restart.";

export interface OpenVaultOptions extends KeytarVaultOptions {
  /** Training (sandbox) mode: the only mode that may keep tokens in memory (issue 4). */
  training: boolean;
}

export interface OpenedVault {
  vault: TokenVault;
  /** Set when tokens are kept in memory: the UI shows it to the person at the counter. */
  warning: string | null;
}

/**
 * Opens the token vault the kiosk runs on: the OS keychain when it answers a probe. When it does not, training mode
 * falls back to memory and says why in `warning`; any other mode rejects with the VaultUnavailableError that says what
 * to install or do (issue 4: only the sandbox mode may fall back to an in-memory vault).
 */
export async function openVault(options: OpenVaultOptions): Promise<OpenedVault> {
  const keychain = new KeytarVault(options);
  try {
    await keychain.probe();
    return { vault: keychain, warning: null };
  } catch (error) {
    if (!(error instanceof VaultUnavailableError) || !options.training) throw error;
    return {
      vault: new MemoryVault(),
      // issue 12: the manager PIN's pepper is a vault secret too, so it goes with the process (people/pin-pepper.ts).
      warning: `Training mode: tokens are kept in memory because no keychain is available: ${error.message} ${MEMORY_PIN_NOTE}`,
    };
  }
}

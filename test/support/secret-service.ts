// Whether this machine's keychain (Secret Service through keytar) answers, for the tests that need a real one: they
// report themselves skipped with the reason when none is there, or run and fail with the keychain's error where one
// must be (CI sets REQUIRE_SECRET_SERVICE=1 and runs them under dbus-run-session with an unlocked gnome-keyring).
import { KeytarVault } from '../../electron/core/vault/keytar-vault.ts';

export const NO_SECRET_SERVICE = 'no Secret Service: run under dbus-run-session with gnome-keyring (see .ci/run)';

/** Null when the keychain answers a probe under `profile`; otherwise the keychain's error message. */
export async function secretServiceProblem(profile: string): Promise<string | null> {
  try {
    await new KeytarVault({ profile, timeoutMs: 10_000 }).probe();
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

/** The `skip` option of a test that needs the keychain, given what secretServiceProblem found. */
export function skipWithoutSecretService(problem: string | null): false | string {
  return problem === null || process.env.REQUIRE_SECRET_SERVICE === '1' ? false : NO_SECRET_SERVICE;
}

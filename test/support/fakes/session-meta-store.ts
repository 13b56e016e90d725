// The session's meta store kept in memory, for tests without the kiosk's settings table (issue 13: test-only code lives
// under test/, not in production modules).
import type { SessionMeta, SessionMetaStore } from '../../../electron/core/platform/session.ts';

export function memorySessionMetaStore(initial: SessionMeta | null = null): SessionMetaStore & { readonly current: SessionMeta | null } {
  let current = initial;
  return {
    get current() {
      return current;
    },
    load: () => current,
    save: (meta) => {
      current = meta;
    },
  };
}

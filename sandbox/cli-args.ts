import { webhookTsAheadProblem } from './domain/webhook-ts.ts';
import { isSandboxProfile, SANDBOX_PROFILES, type SandboxProfile } from './profile.ts';

export interface SandboxArgs {
  port: number;
  host: string;
  data?: string;
  /** Extra Host names the control API answers to (issue 12, sandbox/http/control-hosts.ts). */
  allowHosts: string[];
  training: boolean;
  /** issue 26: `seed` (the default when absent) or `documented` (sandbox/profile.ts). */
  profile?: SandboxProfile;
  help: boolean;
  /** issue 27: seconds the webhooks' signed ts runs ahead (sandbox/domain/webhook-ts.ts). */
  webhookTsAhead?: number;
}

export const SANDBOX_USAGE = `Usage: npm run sandbox -- --port N [--data FILE] [--host ADDRESS]

  --port N        TCP port on 127.0.0.1 (0 picks a free port)
  --data FILE     keep state in this SQLite file (survives restarts); default: memory
  --host ADDRESS  bind address (default 127.0.0.1)
  --allow-host NAME
                  a Host name the control API (/sandbox/...) also answers to, e.g. a container's service name;
                  repeatable (it always answers 127.0.0.1, localhost, [::1] and the --host address)
  --webhook-ts-ahead SECONDS
                  sign webhooks with a ts this many seconds ahead of the sandbox clock (negative: behind), as a
                  platform whose clock is off; PUT /sandbox/webhook-ts {"ahead_seconds": N} changes it while running
  --training      create a training seller at start and print its ids
  --profile NAME  seed (default: the interface document's answers) or documented (the real platform's documented
                  answers and notifications: ms signature ts, 32-character TEST order ids, alpha-3 countries, ...)
  --help          this text
`;

/** Flags in, a clear error out (bad input gets a clear error: developers' guide). */
export function parseSandboxArgs(argv: string[]): { ok: true; args: SandboxArgs } | { ok: false; error: string } {
  const args: SandboxArgs = { port: 0, host: '127.0.0.1', allowHosts: [], training: false, help: false };
  let portSeen = false;
  for (let i = 0; i < argv.length; i += 1) {
    const flag = argv[i] as string;
    const [name, inline] = flag.startsWith('--') && flag.includes('=') ? [flag.slice(0, flag.indexOf('=')), flag.slice(flag.indexOf('=') + 1)] : [flag, undefined];
    const value = (): string | null => {
      if (inline !== undefined) return inline;
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) return null;
      i += 1;
      return next;
    };
    switch (name) {
      case '--port': {
        const v = value();
        if (v === null || !/^\d+$/.test(v) || Number(v) > 65535) {
          return { ok: false, error: `--port needs a number from 0 to 65535, got ${v === null ? 'nothing' : JSON.stringify(v)}` };
        }
        args.port = Number(v);
        portSeen = true;
        break;
      }
      case '--data': {
        const v = value();
        if (!v) return { ok: false, error: '--data needs a file path' };
        args.data = v;
        break;
      }
      case '--host': {
        const v = value();
        if (!v) return { ok: false, error: '--host needs an address' };
        args.host = v;
        break;
      }
      case '--allow-host': {
        const v = value();
        // A bare name or address: the port is always the one the sandbox listens on.
        if (!v || !/^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)$/.test(v)) {
          return { ok: false, error: `--allow-host needs a host name or address without a port, got ${v ? JSON.stringify(v) : 'nothing'}` };
        }
        args.allowHosts.push(v);
        break;
      }
      case '--webhook-ts-ahead': {
        // Not value(): a negative number starts with '-' but not '--', so it is taken as the value.
        const v = value();
        const problem = v === null || !/^-?\d{1,7}$/.test(v) ? 'a whole number of seconds' : webhookTsAheadProblem(Number(v));
        if (problem) return { ok: false, error: `--webhook-ts-ahead needs ${problem}, got ${v === null ? 'nothing' : JSON.stringify(v)}` };
        args.webhookTsAhead = Number(v);
        break;
      }
      case '--profile': {
        const v = value();
        if (v === null || !isSandboxProfile(v)) {
          return { ok: false, error: `--profile needs one of ${SANDBOX_PROFILES.join(', ')}, got ${v === null ? 'nothing' : JSON.stringify(v)}` };
        }
        args.profile = v;
        break;
      }
      case '--training':
        if (inline !== undefined) return { ok: false, error: '--training takes no value' };
        args.training = true;
        break;
      case '--help':
      case '-h':
        if (inline !== undefined) return { ok: false, error: '--help takes no value' };
        args.help = true;
        break;
      default:
        return { ok: false, error: name.startsWith('-') ? `unknown flag ${name}` : `unexpected argument ${JSON.stringify(flag)} (flags start with --)` };
    }
  }
  if (!portSeen && !args.help && !args.training) return { ok: false, error: '--port is required (use 0 for a free port)' };
  return { ok: true, args };
}

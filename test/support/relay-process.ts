// The relay as the operator runs it: `node --import tsx relay/main.ts ...` (what `npm run relay` runs) as a child
// process from the repo root, with its output captured, for the tests that need a real process (SIGKILL, exit codes,
// two processes on one Redis, flags and environment).
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

export interface RelayExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface RelayChild {
  child: ChildProcess;
  /** Everything printed so far. */
  stdout(): string;
  stderr(): string;
  exited: Promise<RelayExit>;
}

export interface RelayProcess extends RelayChild {
  url: string;
  /** stdout then stderr, as printed so far. */
  output(): string;
}

export interface SpawnRelayOptions {
  /** Added to the environment (after the runner's own RELAY_* variables are removed). */
  env?: Record<string, string>;
  /** The test file's set of children, for killRelays in its after hook. */
  children?: Set<ChildProcess>;
}

/** The test runner's own RELAY_* variables must not leak into the relays under test. */
export function relayEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('RELAY_'))), ...extra };
}

/** Spawns the relay with `args`, recording stdout and stderr. */
export function spawnRelay(args: string[], options: SpawnRelayOptions = {}): RelayChild {
  const child = spawn(process.execPath, ['--import', 'tsx', 'relay/main.ts', ...args], { cwd: ROOT, env: relayEnv(options.env), stdio: ['ignore', 'pipe', 'pipe'] });
  options.children?.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<RelayExit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

/** Resolves with the relay's base URL once it prints its listening line; rejects if it exits first or takes over 30 s. */
export function listeningUrl(run: RelayChild): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the relay did not print its URL within 30 s; stderr: ${run.stderr()}`)), 30_000);
    run.child.stdout?.on('data', () => {
      const match = /http:\/\/127\.0\.0\.1:\d+/.exec(run.stdout());
      if (match) {
        clearTimeout(timer);
        resolve(match[0]);
      }
    });
    void run.exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`the relay exited (${code ?? signal}) before listening; stderr: ${run.stderr()}`));
    });
  });
}

/** Starts the relay as a child process and resolves once it is listening. */
export async function startRelayProcess(args: string[], options: SpawnRelayOptions = {}): Promise<RelayProcess> {
  const run = spawnRelay(args, options);
  const url = await listeningUrl(run);
  return { ...run, url, output: () => run.stdout() + run.stderr() };
}

/** Waits for a relay expected to exit on its own; one still running after `timeoutMs` is killed (a bound, not a measurement). */
export async function waitForExit(run: RelayChild, timeoutMs: number): Promise<RelayExit> {
  const timer = setTimeout(() => run.child.kill('SIGKILL'), timeoutMs);
  const exit = await run.exited;
  clearTimeout(timer);
  return exit;
}

/** For an after hook: SIGKILLs every child still running and waits until they have all exited. */
export async function killRelays(children: Set<ChildProcess>): Promise<void> {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await Promise.all([...children].map((child) => (child.exitCode === null && child.signalCode === null ? new Promise((resolve) => child.once('exit', resolve)) : null)));
}

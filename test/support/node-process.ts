// One of the project's commands (`sandbox/main.ts`, `relay/main.ts`, `launch/web.ts`) as a real child process, the
// way a store runs it: started from the repo root with tsx, its output captured, ready once it prints the line that
// announces it. For the tests that run the sandbox, the relay and the kiosk as separate processes (issue 12).
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

export interface NodeProcess {
  child: ChildProcess;
  /** The first match of the `ready` pattern in stdout. */
  ready: RegExpExecArray;
  stdout(): string;
  stderr(): string;
  /** SIGTERM, then SIGKILL after 10 s; resolves with the exit code (null when killed). */
  stop(): Promise<number | null>;
}

/**
 * Spawns `node --import tsx <entry> ...args` and resolves once stdout matches `ready`; rejects (and kills the child)
 * when it exits first or stays silent for 60 s, with its stderr in the message.
 */
export function startNodeProcess(entry: string, args: string[], options: { ready: RegExp; env?: NodeJS.ProcessEnv }): Promise<NodeProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', entry, ...args], { cwd: ROOT, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async (): Promise<number | null> => {
    if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.kill('SIGTERM');
    const code = await exited;
    clearTimeout(timer);
    return code;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${entry} printed nothing matching ${options.ready} within 60 s; stderr: ${stderr}`));
    }, 60_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = options.ready.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve({ child, ready: match, stdout: () => stdout, stderr: () => stderr, stop });
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${entry} exited (${code}) before it was ready; stderr: ${stderr}`));
    });
  });
}

// `npm run sandbox -- ...` (sandbox/main.ts) as a real child process, for the command-line tests (issue 2 flags and
// data file, issue 26 --profile): run one to its end, or serve one until the test stops it. Each test file keeps its
// own SandboxCli so its after hook kills only its own children.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

export interface SandboxExit {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface ServingSandbox {
  child: ChildProcess;
  /** The base URL it announced. */
  url: string;
  /** Its first line on stdout (the one that announces the URL). */
  line: string;
}

export class SandboxCli {
  readonly #children = new Set<ChildProcess>();

  /** Spawns `node --import tsx sandbox/main.ts ...args` from the repo root, stdout and stderr piped. */
  start(args: string[]): ChildProcess {
    const child = spawn(process.execPath, ['--import', 'tsx', 'sandbox/main.ts', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    this.#children.add(child);
    child.on('exit', () => this.#children.delete(child));
    return child;
  }

  /** Runs the command to its end. */
  run(args: string[]): Promise<SandboxExit> {
    const child = this.start(args);
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  }

  /** Starts a sandbox and resolves once its first stdout line, which announces its URL, is complete. */
  serve(args: string[]): Promise<ServingSandbox> {
    const child = this.start(args);
    let stdout = '';
    let stderr = '';
    return new Promise((resolve, reject) => {
      child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.stdout?.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const match = /http:\/\/127\.0\.0\.1:(\d+)/.exec(stdout);
        if (match && stdout.includes('\n')) resolve({ child, url: match[0], line: stdout.split('\n')[0] ?? '' });
      });
      child.on('close', (code) => reject(new Error(`the sandbox exited with ${code} before announcing its URL: ${stderr}`)));
    });
  }

  /** SIGTERM, which the sandbox handles by closing cleanly (the data file is flushed and closed); resolves with the exit code. */
  stop(child: ChildProcess): Promise<number | null> {
    return new Promise((resolve) => {
      if (child.exitCode !== null) return resolve(child.exitCode);
      child.on('exit', (code) => resolve(code));
      child.kill('SIGTERM');
    });
  }

  /** For an after hook: SIGKILLs every child still running. */
  killAll(): void {
    for (const child of this.#children) child.kill('SIGKILL');
  }
}

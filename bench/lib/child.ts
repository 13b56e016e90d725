// Servers under measurement run in child processes, so the load generator's work and garbage stay off the server's
// event loop and heap, and the server's memory can be read on its own. Protocol over the IPC channel:
//   child → parent  {type:'ready', url}                     once it listens (127.0.0.1 only)
//   parent → child  {type:'ask', id, what}                  e.g. 'memory' (after a full GC), or a server's own 'stats'
//   child → parent  {type:'answer', id, value | error}
//   parent → child  {type:'close'}                          the child closes its server and exits
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

export interface ChildServer {
  url: string;
  pid: number;
  ask<T = unknown>(what: string): Promise<T>;
  stop(): Promise<void>;
}

export interface MemorySample {
  rss: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

interface ReadyMessage {
  type: 'ready';
  url: string;
}
interface AnswerMessage {
  type: 'answer';
  id: number;
  value?: unknown;
  error?: string;
}

/** Forks `script` (a path under bench/) with tsx and resolves once it reports its URL; rejects if it exits first. */
export async function startChildServer(script: string, options: { env?: Record<string, string>; execArgv?: string[]; startTimeoutMs?: number } = {}): Promise<ChildServer> {
  const child: ChildProcess = fork(join(ROOT, script), [], {
    cwd: ROOT,
    execArgv: ['--import', 'tsx', ...(options.execArgv ?? [])],
    env: { ...process.env, ...(options.env ?? {}) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let nextId = 1;
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start within ${options.startTimeoutMs ?? 60_000} ms`)), options.startTimeoutMs ?? 60_000);
    child.on('message', (raw) => {
      const message = raw as ReadyMessage | AnswerMessage;
      if (message.type === 'ready') {
        clearTimeout(timer);
        resolve(message.url);
      } else if (message.type === 'answer') {
        const waiter = pending.get(message.id);
        pending.delete(message.id);
        if (message.error !== undefined) waiter?.reject(new Error(message.error));
        else waiter?.resolve(message.value);
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited (${code ?? signal}) before it was ready`));
      for (const waiter of pending.values()) waiter.reject(new Error(`${script} exited`));
    });
  });
  if (!url.startsWith('http://127.0.0.1:')) throw new Error(`benchmarks talk to 127.0.0.1 only, not ${url}`);
  return {
    url,
    pid: child.pid ?? -1,
    ask<T>(what: string) {
      const id = nextId++;
      return new Promise<T>((resolve, reject) => {
        pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
        child.send({ type: 'ask', id, what });
      });
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      if (child.connected) child.send({ type: 'close' });
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export interface ServedChild {
  url: string;
  /** Answers a parent's question other than 'memory'. */
  answer?(what: string): unknown;
  close(): Promise<void>;
}

/** The child's side: starts the server, reports its URL, answers questions, closes on request or when the parent goes. */
export async function serveAsChild(start: () => Promise<ServedChild>): Promise<void> {
  if (!process.send) throw new Error('this file is a benchmark server: bench/lib/child.ts starts it');
  const served = await start();
  const stop = () => void served.close().finally(() => process.exit(0));
  process.on('disconnect', stop);
  process.on('message', (raw) => {
    const message = raw as { type: string; id?: number; what?: string };
    if (message.type === 'close') return stop();
    if (message.type !== 'ask' || message.id === undefined) return;
    try {
      const value = message.what === 'memory' ? memoryAfterGc() : served.answer?.(message.what ?? '');
      process.send?.({ type: 'answer', id: message.id, value });
    } catch (error) {
      process.send?.({ type: 'answer', id: message.id, error: error instanceof Error ? error.message : String(error) });
    }
  });
  process.send({ type: 'ready', url: served.url });
}

/** Memory after a full collection when the child runs with --expose-gc (otherwise as it stands). */
function memoryAfterGc(): MemorySample {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
  const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage();
  return { rss, heapUsed, external, arrayBuffers };
}

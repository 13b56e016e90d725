import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

/** A real redis-server for the relay's scale-out tests (issue 3), on a free port, with its data in a temp dir. */
export interface RedisServer {
  url: string;
  port: number;
  dir: string;
  /** Kills the server and removes its directory; safe to call twice. */
  stop(): Promise<void>;
}

/**
 * The redis-server binary (Debian's /usr/bin/redis-server first, then PATH), or null when it is not installed.
 * REDIS_SERVER=<path> names it instead (and REDIS_SERVER=none shows what the tests do on a machine without it).
 */
export function redisServerPath(): string | null {
  const forced = process.env.REDIS_SERVER;
  if (forced !== undefined && forced !== '') return existsSync(forced) ? forced : null;
  const candidates = ['/usr/bin/redis-server', ...(process.env.PATH ?? '').split(delimiter).filter(Boolean).map((dir) => join(dir, 'redis-server'))];
  return candidates.find((path) => existsSync(path)) ?? null;
}

/** For `test(name, { skip: REDIS_SKIP }, ...)`: false when redis-server exists, else the reason the test is skipped. */
export const REDIS_SKIP: false | string = redisServerPath() === null ? 'redis-server not installed' : false;

/** A port that was free a moment ago (the kernel picks it; a race with another process is retried by the caller). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no TCP port');
  return address.port;
}

/**
 * Starts `redis-server --port N --bind 127.0.0.1 --save '' --appendonly yes --appendfsync always --dir TMP` and resolves
 * once it answers PING. Durability as the relay README asks for in production (every write fsynced to the AOF).
 * Throws when redis-server is missing or does not answer within timeoutMs.
 */
export async function startRedisServer(timeoutMs = 15_000): Promise<RedisServer> {
  const binary = redisServerPath();
  if (binary === null) throw new Error('redis-server not installed');
  let lastError: Error | null = null;
  // A port picked by freePort() may be taken before redis binds it: try a few.
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'relay-redis-'));
    const child = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'yes', '--appendfsync', 'always', '--dir', dir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
    child.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const stop = once(async () => {
      await kill(child, exited);
      rmSync(dir, { recursive: true, force: true });
    });
    const deadline = Date.now() + timeoutMs;
    let up = false;
    while (!up && child.exitCode === null && child.signalCode === null && Date.now() < deadline) {
      up = await ping(port);
      if (!up) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (up) return { url: `redis://127.0.0.1:${port}`, port, dir, stop };
    await stop();
    lastError = new Error(`redis-server on port ${port} did not answer PING: ${output.trim().split('\n').slice(-3).join(' | ')}`);
  }
  throw lastError ?? new Error('redis-server did not start');
}

async function kill(child: ChildProcess, exited: Promise<number | null>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGKILL');
  await exited;
}

/** One raw RESP PING: true when the server answers +PONG. */
function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    let reply = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk: Buffer) => {
      reply += chunk.toString();
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
  });
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | null = null;
  return () => (running ??= fn());
}

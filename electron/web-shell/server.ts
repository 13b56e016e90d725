import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, resolve, sep } from 'node:path';
import type { KioskApi, KioskError, KioskEvent, KioskMethod } from '../../shared/kiosk-api.ts';
import { isKioskMethod } from '../../shared/kiosk-names.ts';
import type { dispatch as Dispatch } from '../core/api-dispatch.ts';
import { RENDERER_CONTENT_TYPES } from '../core/host/renderer-content-types.ts';
import { kioskError } from '../../shared/kiosk-errors.ts';
import { EventsSinceFirstReads, firstReadsElement, pageAroundFirstReads, readFirstAnswers } from './first-reads.ts';
import { WEB_SHELL_SERVER_LIMITS, capConnections, httpServerOptions, type ServerLimits } from '../../node-common/server-limits.ts';

// The web shell's own code (shared/kiosk-errors.ts), not the platform's `unauthorized`, which sends the cashier to
// connect the account: a page without this launch's secret is fixed by restarting the kiosk (issue 13).
const LAUNCH_SECRET_REFUSED: KioskError = kioskError('launch_secret_refused');

export interface EventSource {
  subscribe(listener: (event: KioskEvent) => void): () => void;
}

export interface WebShellOptions {
  api: KioskApi;
  events: EventSource;
  /** The built renderer (renderer/dist); null serves a page that says it is not built. */
  staticDir: string | null;
  port?: number;
  /** Per-launch secret; random when absent. */
  secret?: string;
  heartbeatMs?: number;
  /**
   * issue 14 "cold start": how long the first load's page waits for the first screen's answers (first-reads.ts) before
   * it is ended without them (its calls then wait as before); its own part is sent at once either way. Default 2 s: a
   * kiosk still starting answers them well within that; a core that cannot start should not hold the page.
   */
  firstReadsWaitMs?: number;
  /** Called when a page's event stream opens (the page's scripts have run): launch/run-web.ts starts its own work then. */
  streamOpened?: () => void;
  /** How long a one-time launch code (WebShell.oneTimeUrl) can be exchanged. Default 60 s. */
  codeTtlMs?: number;
  /** Socket limits (issue 27 item 4); default WEB_SHELL_SERVER_LIMITS, the relay's timeouts. */
  limits?: ServerLimits;
}

export interface WebShell {
  /** The URL to open: it carries the per-launch secret, which the page keeps and strips from the address bar. */
  url: string;
  origin: string;
  secret: string;
  /**
   * issue 27 item 4: a URL carrying a one-time code instead of the secret, for a browser's command line (readable by
   * every user in /proc): its first load, within codeTtlMs, trades the code for the secret in an HttpOnly,
   * SameSite=Strict cookie; a second load of it is refused. Each call makes a new code.
   */
  oneTimeUrl(): string;
  /**
   * issue 14 "cold start": reads the first screen's answers now, for the next page load with the secret (the launch's
   * window), so that page is served at once instead of after its reads. launch/run-web.ts calls it when the core is
   * composed, while the browser is still starting. Answers whose events are no longer kept (30 s) are read again.
   */
  readAhead(): void;
  close(): Promise<void>;
}

const MAX_BODY = 64 * 1024;
/** Where a one-time launch code is exchanged for the launch cookie (issue 27 item 4). */
const LAUNCH_PATH = '/launch';
/**
 * importCatalog carries a CSV of up to 1,000,000 characters (kiosk-api). In UTF-8 a character takes up to 3 bytes
 * (accents 2, other scripts 3), and JSON doubles a quote or a line break: 3 MB covers any real file, plus room for the
 * envelope. Every other method keeps the small limit.
 */
const MAX_BODY_BY_METHOD: Partial<Record<KioskMethod, number>> = { importCatalog: 3_000_000 + 64 * 1024 };

/**
 * issue 14 "cold start": the dispatcher brings the contract's schemas and zod with it (about 45 ms of module loading
 * on a cold start, CPU profile of the web shell), so it is not loaded before the shell listens: startWebShell starts
 * reading it then, and a call waits for it.
 */
let dispatching: Promise<{ dispatch: typeof Dispatch }> | null = null;
const loadDispatch = () => (dispatching ??= import('../core/api-dispatch.ts'));
// issue 12: style-src without 'unsafe-inline', as in the Electron shell (electron/main/content-policy.ts says why it holds).
const PAGE_HEADERS = {
  'content-security-policy': "default-src 'self'; img-src 'self' data:; style-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

/**
 * The web shell (issue 4): the same core and renderer as the Electron app, over HTTP on 127.0.0.1 only. Every API call
 * needs the per-launch secret (header x-kiosk-secret; the event stream takes it as ?k= because EventSource cannot set
 * headers), a same-origin Origin, a Host naming this server (DNS rebinding), and a JSON content type (no form CSRF).
 */
export async function startWebShell(options: WebShellOptions): Promise<WebShell> {
  const secret = options.secret ?? randomBytes(24).toString('hex');
  const secretBuffer = Buffer.from(secret);
  const staticRoot = options.staticDir === null ? null : resolve(options.staticDir);
  const staticFiles = staticRoot === null ? new Map<string, StaticFile>() : readStaticFiles(staticRoot);
  const indexFile = staticRoot === null ? null : join(staticRoot, 'index.html');
  /** Open event streams, each with what detaches it from the core's events. */
  const streams = new Map<ServerResponse, () => void>();
  const keptEvents = new EventsSinceFirstReads();
  let origin = '';
  let hosts: string[] = [];
  let cookieName = '';
  /** One-time launch codes not used yet, each with when it expires (issue 27 item 4). */
  const codes = new Map<string, number>();
  const codeTtlMs = options.codeTtlMs ?? 60_000;
  const limits = options.limits ?? WEB_SHELL_SERVER_LIMITS;

  /** Uses up a code: true once, for a code made by oneTimeUrl() within codeTtlMs; false ever after. */
  const takeCode = (given: string | null): boolean => {
    if (!given) return false;
    const now = Date.now();
    const buffer = Buffer.from(given);
    let found: string | null = null;
    for (const [code, expiresAt] of codes) {
      if (expiresAt <= now) codes.delete(code);
      else if (Buffer.byteLength(code) === buffer.length && timingSafeEqual(Buffer.from(code), buffer)) found = code;
    }
    if (found === null) return false;
    codes.delete(found);
    return true;
  };

  /** The secret from this launch's cookie (set by a one-time code), if the request carries it. */
  const cookieSecret = (req: IncomingMessage): string | undefined => {
    for (const part of String(req.headers.cookie ?? '').split(';')) {
      const eq = part.indexOf('=');
      if (eq !== -1 && part.slice(0, eq).trim() === cookieName) return part.slice(eq + 1).trim();
    }
    return undefined;
  };

  const matchesSecret = (given: string | undefined | null): boolean => {
    if (!given) return false;
    const buffer = Buffer.from(given);
    return buffer.length === secretBuffer.length && timingSafeEqual(buffer, secretBuffer);
  };

  /** The secret given (header or ?k=) or, failing that, the launch cookie (issue 27 item 4). */
  const authorized = (req: IncomingMessage, given: string | undefined | null): boolean => matchesSecret(given) || matchesSecret(cookieSecret(req));

  // issue 27 item 4: the relay's socket limits (node-common/server-limits.ts), so slow sockets are cut.
  const server: Server = createServer(httpServerOptions(limits), (req, res) => {
    void handle(req, res).catch(() => {
      if (!res.headersSent) json(res, 500, { ok: false, error: kioskError('internal', 'The web shell failed.') });
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = requestUrl(req.url, origin);
    if (url === null) {
      // Like a request Node cannot parse (answerClientError): answered, then the connection closes.
      res.setHeader('connection', 'close');
      return json(res, 400, { ok: false, error: kioskError('bad_path', 'The request target cannot be read.') });
    }
    if (!hosts.includes(String(req.headers.host ?? '').toLowerCase())) {
      return json(res, 421, { ok: false, error: kioskError('wrong_host', 'This server answers only to its own address.') });
    }
    if (url.pathname.startsWith('/api/')) {
      const requestOrigin = req.headers.origin;
      if (requestOrigin !== undefined && requestOrigin !== origin) {
        return json(res, 403, { ok: false, error: kioskError('forbidden_origin', 'Cross-origin calls are refused.') });
      }
      if (url.pathname === '/api/events' && req.method === 'GET') {
        if (!authorized(req, url.searchParams.get('k'))) return json(res, 401, { ok: false, error: LAUNCH_SECRET_REFUSED });
        return openEventStream(res, keptEvents.take(url.searchParams.get('b')));
      }
      if (req.method !== 'POST') return json(res, 405, { ok: false, error: kioskError('method_not_allowed', 'API calls are POST.') });
      if (requestOrigin === undefined && req.headers['sec-fetch-site'] !== undefined && req.headers['sec-fetch-site'] !== 'same-origin') {
        return json(res, 403, { ok: false, error: kioskError('forbidden_origin', 'Cross-site calls are refused.') });
      }
      // A cookie is sent with cross-site requests only when SameSite allows it (Strict: never), and the Origin check
      // above refuses other origins' calls: it authenticates this origin's pages, as the header does.
      if (!authorized(req, single(req.headers['x-kiosk-secret']))) {
        return json(res, 401, { ok: false, error: LAUNCH_SECRET_REFUSED });
      }
      if (!String(req.headers['content-type'] ?? '').toLowerCase().startsWith('application/json')) {
        return json(res, 415, { ok: false, error: kioskError('unsupported_media_type', 'API calls send application/json.') });
      }
      const method = url.pathname.slice('/api/'.length);
      if (!isKioskMethod(method)) return json(res, 404, { ok: false, error: kioskError('unknown_method', `There is no kiosk method ${method.slice(0, 64)}.`) });
      const body = await readBody(req, MAX_BODY_BY_METHOD[method] ?? MAX_BODY);
      if (body === null) return json(res, 413, { ok: false, error: kioskError('too_large', 'The request is too large.') });
      let payload: unknown;
      try {
        payload = body.trim() === '' ? {} : JSON.parse(body);
      } catch {
        return json(res, 400, { ok: false, error: kioskError('invalid_input', 'The request body is not valid JSON.') });
      }
      const { dispatch } = await loadDispatch();
      const result = await dispatch(options.api, method, payload);
      return json(res, result.ok || result.error.code !== 'invalid_input' ? 200 : 400, result);
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return json(res, 405, { ok: false, error: kioskError('method_not_allowed', 'Only GET here.') });
    if (url.pathname === LAUNCH_PATH) return exchangeCode(req, url, res);
    // issue 14 "cold start": the launch's own URL (it carries the secret) gets the page with the first screen's answers.
    if (req.method === 'GET' && authorized(req, url.searchParams.get('k'))) {
      const page = staticFileOf(url.pathname);
      if ('found' in page && page.file === indexFile) return servePageWithFirstReads(page.found, res);
    }
    return serveStatic(url.pathname, single(req.headers['if-none-match']), res);
  }

  /**
   * issue 27 item 4: GET /launch?c=<code> trades a one-time code for the secret in a cookie: HttpOnly (no script reads
   * it), SameSite=Strict (no other site's page sends it), for this session only. The answer moves the page to / by a
   * meta refresh rather than a redirect: a navigation this origin's page starts is same-site, so the cookie goes with
   * it (and the first screen's answers come with the page), whatever opened the launch URL (a local file, say). A code
   * used, expired or unknown gets 401, and nothing is set.
   */
  function exchangeCode(req: IncomingMessage, url: URL, res: ServerResponse): void {
    if (req.method !== 'GET' || !takeCode(url.searchParams.get('c'))) return json(res, 401, { ok: false, error: LAUNCH_SECRET_REFUSED });
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'set-cookie': `${cookieName}=${secret}; HttpOnly; SameSite=Strict; Path=/`,
      ...PAGE_HEADERS,
    });
    res.end('<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=/"><title>Kiosk</title>');
  }

  /**
   * index.html with the first screen's answers (first-reads.ts), never cached (they are this moment's, and only for
   * the holder of the secret); without them, as any load, when they take longer than firstReadsWaitMs or fail.
   * issue 14 "cold start": the page's own part goes first, at once, so the browser fetches its scripts and stylesheet
   * while the answers are read (measured: the page waited for them 50 ms in half the cold starts, its files after).
   */
  async function servePageWithFirstReads(index: StaticFile, res: ServerResponse): Promise<void> {
    const ahead = readingAhead;
    readingAhead = null;
    let first = ahead && keptEvents.has(ahead.stream) ? ahead : readFirst();
    const page = pageAroundFirstReads(index.body);
    res.writeHead(200, { 'content-type': index.type, 'cache-control': 'no-store', ...PAGE_HEADERS });
    res.write(page.before);
    let answers = await inTime(first.answers);
    if (answers !== null && !keptEvents.has(first.stream)) {
      // Read ahead long before the page came: its events are no longer kept, so the answers are read again.
      first = readFirst();
      answers = await inTime(first.answers);
    }
    const { stream } = first;
    // A page gone while its answers were read (closed, reloaded) never opens this stream.
    if (answers === null || res.destroyed) keptEvents.take(stream);
    if (res.destroyed) return;
    res.end(answers === null ? page.after : Buffer.concat([Buffer.from(firstReadsElement({ answers, stream }), 'utf8'), page.after]));
  }

  /** The first screen's answers, with the events kept from before the reads begin (so none falls between). */
  function readFirst(): { stream: string; answers: Promise<Record<string, unknown> | null> } {
    const stream = keptEvents.keep(options.events);
    const answers = loadDispatch()
      .then(({ dispatch }) => readFirstAnswers((method, input) => dispatch(options.api, method, input)))
      .catch(() => null);
    return { stream, answers };
  }
  let readingAhead: ReturnType<typeof readFirst> | null = null;

  /** The answers, or null when they take longer than firstReadsWaitMs. */
  async function inTime(answers: Promise<Record<string, unknown> | null>): Promise<Record<string, unknown> | null> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<null>((resolveLate) => (timer = setTimeout(() => resolveLate(null), options.firstReadsWaitMs ?? 2_000)));
    try {
      return await Promise.race([answers, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * The file a path is served from: itself, or index.html for the single page's routes (its routes, e.g. /customer);
   * `bad_path` when it cannot be decoded, `not_found` outside the renderer's folder or when nothing is there.
   */
  function staticFileOf(pathname: string): { file: string; found: StaticFile } | { error: 'bad_path' | 'not_found' } {
    if (staticRoot === null || indexFile === null) return { error: 'not_found' };
    let decoded: string;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      return { error: 'bad_path' };
    }
    const file = normalize(join(staticRoot, decoded));
    if (file !== staticRoot && !file.startsWith(staticRoot + sep)) return { error: 'not_found' };
    const own = staticFiles.get(file);
    if (own) return { file, found: own };
    const index = staticFiles.get(indexFile);
    return index ? { file: indexFile, found: index } : { error: 'not_found' };
  }

  function openEventStream(res: ServerResponse, kept: KioskEvent[] | null): void {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive' });
    res.write('retry: 2000\n\n');
    const send = (event: KioskEvent) => {
      // Renderer events never carry secrets: they are built from KioskOrder, OutboxItem, Connectivity, SessionState.
      if (res.writableLength > 1024 * 1024) return res.destroy();
      res.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
    };
    // The events since this page's first answers were read, then the live ones, in one synchronous step (no gap).
    for (const event of kept ?? []) send(event);
    const unsubscribe = options.events.subscribe(send);
    options.streamOpened?.();
    const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), options.heartbeatMs ?? 15_000);
    heartbeat.unref();
    // Detached at once when the shell closes: 'close' comes only once the socket is gone, and an event the core emits
    // in between must not be written to an ended stream (ERR_STREAM_WRITE_AFTER_END).
    const detach = () => {
      clearInterval(heartbeat);
      unsubscribe();
      streams.delete(res);
    };
    streams.set(res, detach);
    res.on('close', detach);
  }

  function serveStatic(pathname: string, ifNoneMatch: string | undefined, res: ServerResponse): void {
    if (staticRoot === null) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...PAGE_HEADERS });
      res.end('<!doctype html><meta charset="utf-8"><title>Kiosk</title><p>The cashier UI is not built yet: run <code>npm run build</code>.</p>');
      return;
    }
    const page = staticFileOf(pathname);
    if ('error' in page) return json(res, page.error === 'bad_path' ? 400 : 404, { ok: false, error: page.error === 'bad_path' ? kioskError('bad_path', 'The path cannot be decoded.') : kioskError('not_found', 'No such file.') });
    const { found } = page;
    if (ifNoneMatch === found.etag) {
      res.writeHead(304, { etag: found.etag, ...PAGE_HEADERS });
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': found.type, 'content-length': found.body.length, etag: found.etag, ...PAGE_HEADERS });
    res.end(found.body);
  }

  server.on('clientError', answerClientError);
  // Sockets beyond the cap are closed at once (Node's 'drop'); nothing to count here.
  capConnections(server, limits, () => undefined);

  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolveListen());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the web shell is not listening on a TCP port');
  origin = `http://127.0.0.1:${address.port}`;
  hosts = [`127.0.0.1:${address.port}`, `localhost:${address.port}`];
  // A cookie is kept per host, not per port (RFC 6265 8.5): the port in its name keeps two kiosks' apart.
  cookieName = `kiosk-launch-${address.port}`;
  // Read in the background from now on: its code runs at a later turn of the event loop, after the caller's own start
  // steps that follow this one without waiting (launch/run-web.ts shows the address first).
  loadDispatch().catch(() => undefined);
  return {
    url: `${origin}/?k=${secret}`,
    origin,
    secret,
    oneTimeUrl: () => {
      const code = randomBytes(24).toString('hex');
      codes.set(code, Date.now() + codeTtlMs);
      return `${origin}${LAUNCH_PATH}?c=${code}`;
    },
    readAhead: () => {
      if (indexFile !== null && staticFiles.has(indexFile)) readingAhead ??= readFirst();
    },
    close: () =>
      new Promise<void>((resolveClose) => {
        keptEvents.clear();
        for (const [stream, detach] of [...streams]) {
          detach();
          stream.end();
        }
        server.closeAllConnections();
        server.close(() => resolveClose());
      }),
  };
}

interface StaticFile {
  body: Buffer;
  type: string;
  etag: string;
}

/**
 * issue 14 "cold start": the built renderer (renderer/dist, about 0.5 MB), read once when the shell starts and served
 * from memory, by absolute path. While the kiosk starts, its event loop runs the embedded platform's and the core's
 * start in blocks of a tenth of a second and more; a file read from disk then waited for a turn of that loop at each of
 * its steps (stat, read, write), one from memory waits for one. The shell serves the renderer it started with: a build
 * made later is served from the next start, as the Electron shell's window does.
 */
function readStaticFiles(root: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  if (!statSync(root, { throwIfNoEntry: false })?.isDirectory()) return files;
  for (const name of readdirSync(root, { recursive: true, encoding: 'utf8' })) {
    const file = join(root, name);
    if (!statSync(file).isFile()) continue;
    const body = readFileSync(file);
    files.set(file, {
      body,
      type: RENDERER_CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
      // A strong validator: a browser that has the file asks with If-None-Match and gets 304 without the body.
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
    });
  }
  return files;
}

/**
 * The request target as a URL, or null when it cannot be one: only origin-form (`/path?query`) is taken, which is what
 * a browser sends to a server that is not a proxy; anything else (`//host`, `http://[::1`, `*`) would otherwise make
 * `new URL` throw or point elsewhere. issue 12: such a request gets 400, never 500.
 */
function requestUrl(target: string | undefined, origin: string): URL | null {
  if (target === undefined || !target.startsWith('/') || target.startsWith('//')) return null;
  try {
    return new URL(target, origin);
  } catch {
    return null;
  }
}

/**
 * issue 12: a request Node's parser cannot read (a garbage request line, an invalid method, a malformed header) gets
 * an answer, 400 (431 for headers too large, 408 for a request too slow), and the connection closes; never a reset
 * without an answer. As Node's own default does, nothing is written on a socket that can no longer take it or whose
 * response has already begun.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  const response = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || response?.headersSent) {
    socket.destroy();
    return;
  }
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const body = JSON.stringify({ ok: false, error: kioskError('invalid_input', 'The request could not be read.') });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Bad Request'}\r\ncontent-type: application/json; charset=utf-8\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\ncache-control: no-store\r\nconnection: close\r\n\r\n${body}`,
  );
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
  res.end(JSON.stringify(body));
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function readBody(req: IncomingMessage, limit: number): Promise<string | null> {
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => resolveBody(tooLarge ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { KioskApi, KioskMethod } from '../../shared/kiosk-api.ts';
import { isKioskMethod } from '../../shared/kiosk-names.ts';
import type { dispatch as Dispatch } from '../core/api-dispatch.ts';
import { refuse } from '../../shared/kiosk-failure.ts';
import { EventsSinceFirstReads, firstReadsElement, pageAroundFirstReads, readFirstAnswers } from './first-reads.ts';
import { WEB_SHELL_SERVER_LIMITS, capConnections, httpServerOptions, type ServerLimits } from '../../node-common/server-limits.ts';
import { answerResult, refusal } from './answers.ts';
import { answerClientError, readBody, requestUrl, single } from './http-input.ts';
import { PAGE_HEADERS, RendererFiles, type StaticFile } from './static-files.ts';
import { LaunchSecret } from './launch-secret.ts';
import { EventStreams, type EventSource } from './event-stream.ts';

export type { EventSource };

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

/**
 * The web shell (issue 4): the same core and renderer as the Electron app, over HTTP on 127.0.0.1 only. Every API call
 * needs the per-launch secret (header x-kiosk-secret; the event stream takes it as ?k= because EventSource cannot set
 * headers), a same-origin Origin, a Host naming this server (DNS rebinding), and a JSON content type (no form CSRF).
 */
export async function startWebShell(options: WebShellOptions): Promise<WebShell> {
  const launch = new LaunchSecret(options.secret, options.codeTtlMs ?? 60_000);
  const renderer = new RendererFiles(options.staticDir);
  const streams = new EventStreams(options.events, options.heartbeatMs ?? 15_000);
  const keptEvents = new EventsSinceFirstReads();
  let origin = '';
  let hosts: string[] = [];
  const limits = options.limits ?? WEB_SHELL_SERVER_LIMITS;

  // issue 27 item 4: the relay's socket limits (node-common/server-limits.ts), so slow sockets are cut.
  const server: Server = createServer(httpServerOptions(limits), (req, res) => {
    void handle(req, res).catch(() => {
      if (!res.headersSent) refusal(res, refuse('internal'));
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = requestUrl(req.url, origin);
    if (url === null) {
      // Like a request Node cannot parse (answerClientError): answered, then the connection closes.
      res.setHeader('connection', 'close');
      return refusal(res, refuse('bad_path'));
    }
    if (!hosts.includes(String(req.headers.host ?? '').toLowerCase())) return refusal(res, refuse('wrong_host'));
    if (url.pathname.startsWith('/api/')) return handleApi(req, url, res);
    if (req.method !== 'GET' && req.method !== 'HEAD') return refusal(res, refuse('method_not_allowed'));
    if (url.pathname === LAUNCH_PATH) return exchangeCode(req, url, res);
    // issue 14 "cold start": the launch's own URL (it carries the secret) gets the page with the first screen's answers.
    if (req.method === 'GET' && launch.authorizes(req, url.searchParams.get('k'))) {
      const page = renderer.fileOf(url.pathname);
      if ('found' in page && page.file === renderer.indexFile) return servePageWithFirstReads(page.found, res);
    }
    return renderer.serve(url.pathname, single(req.headers['if-none-match']), res);
  }

  /** The API bridge: POST /api/<method> to the one boundary dispatcher both shells use, and GET /api/events. */
  async function handleApi(req: IncomingMessage, url: URL, res: ServerResponse): Promise<void> {
    const requestOrigin = req.headers.origin;
    if (requestOrigin !== undefined && requestOrigin !== origin) return refusal(res, refuse('forbidden_origin'));
    if (url.pathname === '/api/events' && req.method === 'GET') {
      if (!launch.authorizes(req, url.searchParams.get('k'))) return refusal(res, refuse('launch_secret_refused'));
      streams.open(res, keptEvents.take(url.searchParams.get('b')));
      options.streamOpened?.();
      return;
    }
    if (req.method !== 'POST') return refusal(res, refuse('method_not_allowed'));
    if (requestOrigin === undefined && req.headers['sec-fetch-site'] !== undefined && req.headers['sec-fetch-site'] !== 'same-origin') {
      return refusal(res, refuse('forbidden_origin'));
    }
    // A cookie is sent with cross-site requests only when SameSite allows it (Strict: never), and the Origin check
    // above refuses other origins' calls: it authenticates this origin's pages, as the header does. The web shell's
    // own code, not the platform's `unauthorized`, which sends the cashier to connect the account: a page without this
    // launch's secret is fixed by restarting the kiosk (issue 13).
    if (!launch.authorizes(req, single(req.headers['x-kiosk-secret']))) return refusal(res, refuse('launch_secret_refused'));
    if (!String(req.headers['content-type'] ?? '').toLowerCase().startsWith('application/json')) return refusal(res, refuse('unsupported_media_type'));
    const method = url.pathname.slice('/api/'.length);
    if (!isKioskMethod(method)) return refusal(res, refuse('unknown_method', undefined, { details: [method.slice(0, 64)] }));
    const body = await readBody(req, MAX_BODY_BY_METHOD[method] ?? MAX_BODY);
    if (body === null) return refusal(res, refuse('too_large'));
    let payload: unknown;
    try {
      payload = body.trim() === '' ? {} : JSON.parse(body);
    } catch {
      // The body is the one value of the request that could not be read (the dispatcher names fields the same way).
      return refusal(res, refuse('invalid_input', undefined, { details: ['body'] }));
    }
    const { dispatch } = await loadDispatch();
    return answerResult(res, await dispatch(options.api, method, payload));
  }

  /**
   * issue 27 item 4: GET /launch?c=<code> trades a one-time code for the secret in a cookie (LaunchSecret.setCookie).
   * The answer moves the page to / by a meta refresh rather than a redirect: a navigation this origin's page starts is
   * same-site, so the cookie goes with it (and the first screen's answers come with the page), whatever opened the
   * launch URL (a local file, say). A code used, expired or unknown is refused, and nothing is set.
   */
  function exchangeCode(req: IncomingMessage, url: URL, res: ServerResponse): void {
    if (req.method !== 'GET' || !launch.takeCode(url.searchParams.get('c'))) return refusal(res, refuse('launch_secret_refused'));
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'set-cookie': launch.setCookie(), ...PAGE_HEADERS });
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
  launch.listeningOn(address.port);
  // Read in the background from now on: its code runs at a later turn of the event loop, after the caller's own start
  // steps that follow this one without waiting (launch/run-web.ts shows the address first).
  loadDispatch().catch(() => undefined);
  return {
    url: `${origin}/?k=${launch.secret}`,
    origin,
    secret: launch.secret,
    oneTimeUrl: () => `${origin}${LAUNCH_PATH}?c=${launch.newCode()}`,
    readAhead: () => {
      if (renderer.hasIndex()) readingAhead ??= readFirst();
    },
    close: () =>
      new Promise<void>((resolveClose) => {
        keptEvents.clear();
        streams.closeAll();
        server.closeAllConnections();
        server.close(() => resolveClose());
      }),
  };
}

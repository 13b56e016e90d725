import { z } from 'zod';
import type { RetryPolicy } from '../../../node-common/retry.ts';
import { readCappedBody } from '../../../node-common/capped-body.ts';
import { isLoopbackHostname } from '../../../shared/loopback.ts';
import type { PlatformHttp } from './http.ts';
import type { TokenProvider } from './orders-client.ts';
import { PlatformCallError, PlatformNetworkError, platformErrorFrom } from './errors.ts';

// platform-facts "Stores and points of sale": the platform's Stores and POS API as the kiosk core uses it (issue 16),
// and the files behind a POS's `qr` links. Answers are parsed loosely (the real platform sends more fields than the
// kiosk reads); ids may come as numbers or numeric text and are always text here.

const platformId = z.union([z.string().regex(/^[0-9]{1,18}$/), z.number().int().nonnegative()]).transform(String);

const storeSchema = z.object({
  id: platformId,
  name: z.string(),
  external_id: z.string().nullish(),
  location: z
    .object({
      address_line: z.string().nullish(),
      street_name: z.string().nullish(),
      street_number: z.string().nullish(),
      city_name: z.string().nullish(),
      state_name: z.string().nullish(),
    })
    .nullish(),
});
export type PlatformStore = z.infer<typeof storeSchema>;

const posSchema = z.object({
  id: platformId,
  name: z.string(),
  external_id: z.string(),
  store_id: platformId,
  category: z.number().int().nullish(),
  uuid: z.string().nullish(),
  qr: z.object({ image: z.string().nullish(), template_document: z.string().nullish(), template_image: z.string().nullish() }).nullish(),
});
export type PlatformPos = z.infer<typeof posSchema>;

const pageOf = <T extends z.ZodType>(item: T) => z.object({ results: z.array(item) });

/** platform-facts "Stores": the body of POST /users/{user_id}/stores. */
export interface NewStore {
  name: string;
  external_id: string;
  location: { street_name: string; street_number: string; city_name: string; state_name: string; latitude: number; longitude: number; reference?: string };
}

/** platform-facts "POS": the body of POST /pos. */
export interface NewPos {
  name: string;
  fixed_amount: boolean;
  store_id: number;
  external_id: string;
  category: number;
}

/** Every platform call passes here (live/connectivity.ts CallObserver: the core learns whether the platform is reachable). */
export type Observe = <T>(call: () => Promise<T>) => Promise<T>;

export interface StoresClientOptions {
  /** The core's client (retries reads per its policy). */
  http: PlatformHttp;
  /** A client with a short timeout, for the readiness check, which must not keep a screen waiting. */
  quickHttp: PlatformHttp;
  tokens: TokenProvider;
  observe: Observe;
  fetch?: typeof fetch | undefined;
  /** How long fetching one QR file may take before it counts as no answer. */
  fileTimeoutMs?: number;
}

/**
 * Writes are sent once: the Stores and POS API takes no idempotency key, so a create retried after a lost answer
 * could make a second store; instead the caller makes the external id, and a repeat is refused (409) and looked up.
 */
const SEND_ONCE: RetryPolicy = Object.freeze({ maxAttempts: 1, baseMs: 0, maxMs: 0 });
/** Pages of 100 (the API's largest), at most 10 of them: a seller with more than 1000 stores or POS is not a kiosk's. */
const PAGE = 100;
const MAX_PAGES = 10;
/** The largest QR image and template the kiosk takes (a static QR PNG is a few KB; a one-page PDF well under 1 MB). */
const MAX_FILE_BYTES = { png: 2 * 1024 * 1024, pdf: 8 * 1024 * 1024 } as const;
const SIGNATURES = { png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], pdf: [0x25, 0x50, 0x44, 0x46, 0x2d] } as const; // \x89PNG\r\n\x1a\n, %PDF-

/**
 * The Stores and POS API (platform-facts) over PlatformHttp with the session's token. Rejects with PlatformCallError:
 * the platform's code as platformErrorFrom reads the older APIs' body ({message, error, status, cause[]}: `error`
 * holds INVALID_NAME, conflict... kept in `rawCode` when it is in none of the kiosk's tables), PlatformNetworkError
 * when no answer came, NotConnectedError / ReconnectNeededError from the session.
 */
export class StoresClient {
  readonly #o: StoresClientOptions;

  constructor(options: StoresClientOptions) {
    this.#o = options;
  }

  /** GET /users/{user_id}/stores/search, every page. */
  async listStores(userId: string): Promise<PlatformStore[]> {
    return this.#pages((offset) => `/users/${seg(userId)}/stores/search?offset=${offset}&limit=${PAGE}`, storeSchema);
  }

  /** GET /users/{user_id}/stores/search?external_id=… → the store, or null. */
  async findStore(userId: string, externalId: string): Promise<PlatformStore | null> {
    const page = await this.#get(`/users/${seg(userId)}/stores/search?external_id=${encodeURIComponent(externalId)}`, pageOf(storeSchema));
    return page.results[0] ?? null;
  }

  /** GET /stores/{id}. */
  async getStore(id: string): Promise<PlatformStore> {
    return this.#get(`/stores/${seg(id)}`, storeSchema);
  }

  /** POST /users/{user_id}/stores, sent once (SEND_ONCE). */
  async createStore(userId: string, body: NewStore): Promise<PlatformStore> {
    return this.#call(this.#o.http, 'POST', `/users/${seg(userId)}/stores`, storeSchema, { body, retry: SEND_ONCE });
  }

  /** GET /pos, every page: the seller's POS, or one store's with `storeId`. */
  async listPos(storeId?: string): Promise<PlatformPos[]> {
    const filter = storeId === undefined ? '' : `store_id=${encodeURIComponent(storeId)}&`;
    return this.#pages((offset) => `/pos?${filter}offset=${offset}&limit=${PAGE}`, posSchema);
  }

  /**
   * GET /pos?external_id=… → the POS, or null when the seller has none. `quick`: one attempt with a short timeout
   * (the readiness check), so a platform that does not answer is known in seconds.
   */
  async findPos(externalId: string, options: { quick?: boolean } = {}): Promise<PlatformPos | null> {
    const path = `/pos?external_id=${encodeURIComponent(externalId)}`;
    const page = options.quick
      ? await this.#call(this.#o.quickHttp, 'GET', path, pageOf(posSchema), { retry: SEND_ONCE })
      : await this.#get(path, pageOf(posSchema));
    return page.results.find((pos) => pos.external_id === externalId) ?? null;
  }

  /** GET /pos/{id}. */
  async getPos(id: string): Promise<PlatformPos> {
    return this.#get(`/pos/${seg(id)}`, posSchema);
  }

  /** POST /pos, sent once (SEND_ONCE). */
  async createPos(body: NewPos): Promise<PlatformPos> {
    return this.#call(this.#o.http, 'POST', '/pos', posSchema, { body, retry: SEND_ONCE });
  }

  /**
   * The bytes of a POS's QR file (`qr.image`: png; `qr.template_document`: pdf), checked by their signature. The
   * token goes only to the platform's own origin; a file elsewhere (a CDN) is fetched without it, and only over
   * https:// (or on this machine). Rejects with PlatformNetworkError when no answer came, PlatformCallError otherwise
   * (the status, or 200 `unexpected_response` for a body that is not the file asked for or is too large).
   */
  async fetchQrFile(url: string, kind: 'png' | 'pdf'): Promise<Buffer> {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      throw new PlatformCallError(200, 'unexpected_response', 'The platform gave a QR link that is not a URL.');
    }
    const own = target.origin === new URL(this.#o.http.baseUrl).origin;
    if (!own && target.protocol !== 'https:' && !(target.protocol === 'http:' && isLoopbackHostname(target.hostname))) {
      throw new PlatformCallError(200, 'unexpected_response', 'The platform gave a QR link that is not https://.');
    }
    const download = (token: string | null) => this.#o.observe(() => this.#download(target, kind, token));
    return own ? this.#o.tokens.withToken((token) => download(token)) : download(null);
  }

  async #download(url: URL, kind: 'png' | 'pdf', token: string | null): Promise<Buffer> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.#o.fileTimeoutMs ?? 15_000);
    try {
      let response: Response;
      try {
        // The token never follows a redirect to another host: with it, a redirect is an answer the kiosk cannot read.
        response = await (this.#o.fetch ?? fetch)(url, {
          headers: token === null ? {} : { authorization: `Bearer ${token}` },
          redirect: token === null ? 'follow' : 'manual',
          signal: controller.signal,
        });
      } catch (error) {
        throw new PlatformNetworkError(controller.signal.aborted ? 'timeout' : networkCode(error));
      }
      if (response.status < 200 || response.status >= 300) {
        const text = await response.text().catch(() => '');
        throw platformErrorFrom(response.status, parseJson(text));
      }
      const bytes = await readLimited(response, MAX_FILE_BYTES[kind]).catch((error: unknown) => {
        if (error instanceof PlatformCallError) throw error;
        throw new PlatformNetworkError(controller.signal.aborted ? 'timeout' : networkCode(error));
      });
      if (!SIGNATURES[kind].every((byte, i) => bytes[i] === byte)) {
        throw new PlatformCallError(200, 'unexpected_response', `The platform's QR file is not a ${kind.toUpperCase()}.`);
      }
      return bytes;
    } finally {
      clearTimeout(timer);
    }
  }

  async #pages<T extends z.ZodType>(path: (offset: number) => string, item: T): Promise<Array<z.output<T>>> {
    const all: Array<z.output<T>> = [];
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const { results } = await this.#get(path(page * PAGE), pageOf(item));
      all.push(...results);
      if (results.length < PAGE) break;
    }
    return all;
  }

  #get<T>(path: string, schema: z.ZodType<T>): Promise<T> {
    return this.#call(this.#o.http, 'GET', path, schema, {});
  }

  #call<T>(http: PlatformHttp, method: string, path: string, schema: z.ZodType<T>, extra: { body?: unknown; retry?: RetryPolicy }): Promise<T> {
    return this.#o.observe(() => this.#o.tokens.withToken((token) => http.request(method, path, { ...extra, token, schema })));
  }
}

/** An id goes into the path as one segment, whatever it holds. */
function seg(id: string): string {
  return encodeURIComponent(id);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function networkCode(error: unknown): string {
  const code = (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  return typeof code === 'string' && /^[A-Z0-9_]{2,40}$/.test(code) ? code : 'fetch_failed';
}

/** The body, refused (unexpected_response) as soon as it grows past `max` bytes: a QR file is small. */
function readLimited(response: Response, max: number): Promise<Buffer> {
  return readCappedBody(response, max, () => new PlatformCallError(200, 'unexpected_response', `The platform's QR file is larger than ${max} bytes.`));
}

import { backoffDelay, type BackoffPolicy } from '../../../node-common/retry.ts';
import { abortableSleep } from '../../../node-common/sleep.ts';
import type { Clock, Logger, Random } from '../ports.ts';
import { SseLimitError, SseParser, readSse, type SseLimits } from './sse-reader.ts';
import type { RelayProblemCode } from '../../../shared/relay-problems.ts';
import { parseRelayEvent, type RelayEvent } from '../../../shared/schemas/relay-event.ts';

export type RelayStatus = 'live' | 'connecting' | 'offline';

/** One relay event: `data` is the parsed JSON payload (the raw text when it is not JSON). The relay's wire format. */
export type { RelayEvent } from '../../../shared/schemas/relay-event.ts';

/** Where the id of the last handled event lives between connections and restarts (the kiosk's settings table). */
export interface EventCursor {
  /** null or '' when there is none: the stream then starts live from now. */
  get(): string | null;
  set(id: string): void;
}

/** Why the stream is down; the codes and their meaning are in shared/relay-problems.ts (the screen words them). */
export type RelayErrorCode = RelayProblemCode;

export interface RelayError {
  code: RelayErrorCode;
  message: string;
  /** The HTTP status, for unauthorized and bad_response. */
  status?: number;
  /** clock.now() when it happened. */
  at: number;
}

/** baseMs: the first delay's ceiling after a failure; maxMs: the cap of the growth and of the server's retry: hint. */
export type { BackoffPolicy } from '../../../node-common/retry.ts';

export interface RelaySubscriberOptions {
  /** The relay's base URL (the path /events is added), or its /events URL. */
  url: string;
  /** The kiosk key (relay README "Kiosk keys"). */
  key: string;
  cursor: EventCursor;
  fetch?: typeof fetch;
  clock: Clock;
  random: Random;
  /** Waits ms, or less when the signal aborts (stop()). Default: a timer. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Handles one event; the cursor moves past it only once this resolved. Must be idempotent (the tracker is). */
  onEvent(event: RelayEvent): Promise<void> | void;
  /**
   * The relay no longer holds what followed our cursor (`event: reset`), or an event was too large to take: reconcile
   * every non-final order by GET.
   */
  onReset(): Promise<void> | void;
  /** Told of each change of status (never twice the same in a row). */
  onStatus(status: RelayStatus): void;
  /** No byte (heartbeat or event) within this → the connection is dead: abort and reconnect. Default 45 s (3 heartbeats). */
  silenceMs?: number;
  backoff?: BackoffPolicy;
  /** Delay before trying a refused key again: slow, so a wrong key is no hot loop. Default 60 s. */
  unauthorizedRetryMs?: number;
  /** The event stream reader's limits (default DEFAULT_SSE_LIMITS: 64 Ki per event, shared/relay-event-size.ts). */
  sseLimits?: Partial<SseLimits>;
  /** Told why a connection failed, once per kind of failure in a row (never the key). */
  logger?: Logger;
}

const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 1000, maxMs: 30_000 };

/**
 * The delay before reconnect attempt number `attempt` (0 for the first after a failure): exponential from baseMs,
 * capped at maxMs, with jitter over the upper half (so a store's kiosks do not reconnect in step after a relay
 * restart), and never below the server's retry: hint (itself capped at maxMs, so a stray hint cannot park the kiosk).
 */
export function reconnectDelay(attempt: number, policy: BackoffPolicy, random: Random, retryHintMs: number | null = null): number {
  // backoffDelay counts failed attempts from 1. The hint is whole milliseconds (sse-reader reads digits only), so
  // taking the floor after the rounding gives the same delay as before it.
  const jittered = backoffDelay(attempt + 1, policy, random, 'upper-half');
  const floor = retryHintMs === null ? 0 : Math.min(retryHintMs, policy.maxMs);
  return Math.max(floor, jittered);
}

/** The /events URL for a relay URL given with or without it. */
export function eventsUrl(url: string): string {
  const parsed = new URL(url);
  if (!/\/events\/?$/.test(parsed.pathname)) parsed.pathname = parsed.pathname.replace(/\/?$/, '/events');
  return parsed.toString();
}

/**
 * The kiosk's subscription to the relay's event stream (issue 4 "Live status"; relay README "What a kiosk receives").
 * Sends the kiosk key and the persisted Last-Event-ID, hands every event to onEvent in order and moves the cursor past
 * it only once it was handled (a crash mid-handling replays it; the tracker makes that harmless), reconnects with
 * capped exponential backoff and jitter, and treats a stream silent for silenceMs as dead.
 *
 * Statuses: 'connecting' while a connection is being made, 'live' once the stream delivers bytes, 'offline' while it
 * waits to try again (after a failure, a silent stream, a refused key) and after stop(). The poller polls whenever
 * the status is not 'live'.
 */
export class RelaySubscriber {
  readonly #options: RelaySubscriberOptions;
  readonly #fetch: typeof fetch;
  readonly #sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly #silenceMs: number;
  readonly #backoff: BackoffPolicy;
  #status: RelayStatus = 'offline';
  #lastError: RelayError | null = null;
  #retryHintMs: number | null = null;
  /** The code last logged: a relay that stays down is one log line, not one per reconnect. */
  #loggedCode: RelayErrorCode | null = null;
  #running: Promise<void> | null = null;
  #stop: AbortController | null = null;

  constructor(options: RelaySubscriberOptions) {
    this.#options = options;
    this.#fetch = options.fetch ?? fetch;
    this.#sleep = options.sleep ?? abortableSleep;
    this.#silenceMs = options.silenceMs ?? 45_000;
    this.#backoff = options.backoff ?? DEFAULT_BACKOFF;
  }

  get status(): RelayStatus {
    return this.#status;
  }

  /** Why the last connection failed, for the connectivity screen; null once a stream is live again. */
  get lastError(): RelayError | null {
    return this.#lastError;
  }

  /** Starts connecting in the background; a second call while running does nothing. */
  start(): void {
    if (this.#running) return;
    const stop = new AbortController();
    this.#stop = stop;
    this.#running = this.#loop(stop.signal);
  }

  /** Closes the stream, stops reconnecting and resolves once the handler of any event in progress has returned. */
  async stop(): Promise<void> {
    const running = this.#running;
    if (!running) return;
    this.#stop?.abort();
    await running;
    this.#running = null;
    this.#stop = null;
    this.#setStatus('offline');
  }

  async #loop(stopped: AbortSignal): Promise<void> {
    let attempt = 0;
    while (!stopped.aborted) {
      this.#setStatus('connecting');
      const outcome = await this.#connect(stopped);
      if (stopped.aborted) return;
      // A stream that delivered is a healthy relay: start the backoff over. One that had to be cut for its size is not.
      if (outcome.receivedBytes && this.#lastError?.code !== 'oversized') attempt = 0;
      this.#setStatus('offline');
      const delay =
        outcome.unauthorized
          ? reconnectDelay(0, { baseMs: this.#options.unauthorizedRetryMs ?? 60_000, maxMs: this.#options.unauthorizedRetryMs ?? 60_000 }, this.#options.random)
          : reconnectDelay(attempt, this.#backoff, this.#options.random, this.#retryHintMs);
      attempt += 1;
      await this.#sleep(delay, stopped);
    }
  }

  /** One connection, from the request to the end of its stream. Never throws. */
  async #connect(stopped: AbortSignal): Promise<{ receivedBytes: boolean; unauthorized: boolean }> {
    const connection = new AbortController();
    const onStop = () => connection.abort();
    stopped.addEventListener('abort', onStop, { once: true });
    let silent = false;
    let watchdog: ReturnType<typeof setTimeout> | undefined;
    // Armed before the request: a relay that accepts the connection and never answers is as dead as a silent stream.
    const arm = () => {
      clearTimeout(watchdog);
      watchdog = setTimeout(() => {
        silent = true;
        connection.abort();
      }, this.#silenceMs);
    };
    let receivedBytes = false;
    let unauthorized = false;
    try {
      arm();
      const headers: Record<string, string> = {
        accept: 'text/event-stream',
        'cache-control': 'no-cache',
        authorization: `Bearer ${this.#options.key}`,
      };
      const cursor = this.#options.cursor.get();
      if (cursor) headers['last-event-id'] = cursor;
      const response = await this.#fetch(eventsUrl(this.#options.url), { headers, signal: connection.signal });
      if (response.status === 401 || response.status === 403) {
        unauthorized = true;
        await response.body?.cancel().catch(() => undefined);
        this.#fail('unauthorized', `The relay refused the kiosk key (HTTP ${response.status}); check the key in the settings.`, response.status);
        return { receivedBytes, unauthorized };
      }
      const type = response.headers.get('content-type') ?? '';
      if (response.status !== 200 || !response.body || !type.toLowerCase().startsWith('text/event-stream')) {
        await response.body?.cancel().catch(() => undefined);
        this.#fail('bad_response', `The relay answered HTTP ${response.status} (${type || 'no content type'}) instead of an event stream.`, response.status);
        return { receivedBytes, unauthorized };
      }
      const onBytes = () => {
        arm();
        if (!receivedBytes) {
          receivedBytes = true;
          this.#lastError = null;
          this.#loggedCode = null;
          this.#setStatus('live');
        }
      };
      for await (const item of readSse(response.body, onBytes, new SseParser(this.#options.sseLimits))) {
        if (item.kind === 'retry') this.#retryHintMs = item.ms;
        else if (item.kind === 'id') {
          // A block with an id and no data moves the resume point without an event to handle.
          if (item.id !== '') this.#options.cursor.set(item.id);
        } else if (item.kind === 'skipped') {
          // issue 27 item 5: an event too large to take is read past, not reconnected to (the relay would send it
          // again on every connection for as long as it keeps it). What it said is unknown, so every open order is read
          // again from the platform (onReset), then the cursor moves past it.
          clearTimeout(watchdog);
          this.#options.logger?.warn('relay event too large: skipped; reading the open orders from the platform', { event: item.id || '(no id)', type: item.type, size: item.size });
          const handled = await this.#handle(item.id, 'reset', '');
          if (!handled) return { receivedBytes, unauthorized };
          if (item.id !== '') this.#options.cursor.set(item.id);
          arm();
        } else if (item.kind === 'event') {
          // Handling may take longer than silenceMs (a GET on a slow platform): the watchdog waits for it.
          clearTimeout(watchdog);
          const handled = await this.#handle(item.id, item.type, item.data);
          if (!handled) return { receivedBytes, unauthorized };
          // A reset without an id comes from a relay whose log never held an event: our cursor means nothing there, so
          // forget it (live from now) rather than be reset again on every connection. Other events always carry one.
          if (item.id !== '' || item.type === 'reset') this.#options.cursor.set(item.id);
          arm();
        }
      }
      this.#fail('network', 'The relay closed the event stream.');
    } catch (error) {
      if (stopped.aborted) return { receivedBytes, unauthorized };
      if (silent) this.#fail('silence', `Nothing arrived from the relay for ${this.#silenceMs} ms; reconnecting.`);
      else if (error instanceof SseLimitError) this.#fail('oversized', `The relay sent ${error.message}; the connection was dropped.`);
      else this.#fail('network', `The relay could not be reached: ${describe(error)}.`);
    } finally {
      clearTimeout(watchdog);
      stopped.removeEventListener('abort', onStop);
      connection.abort();
    }
    return { receivedBytes, unauthorized };
  }

  /** Runs the handler; false (and the connection is dropped) when it threw, so the event comes again. */
  async #handle(id: string, type: string, text: string): Promise<boolean> {
    try {
      if (type === 'reset') await this.#options.onReset();
      else await this.#options.onEvent(parseRelayEvent(id, type, text));
      return true;
    } catch (error) {
      this.#fail('handler_failed', `Handling relay event ${id || '(no id)'} (${type}) failed: ${describe(error)}.`);
      return false;
    }
  }

  #fail(code: RelayErrorCode, message: string, status?: number): void {
    this.#lastError = { code, message, ...(status !== undefined ? { status } : {}), at: this.#options.clock.now() };
    if (code !== this.#loggedCode) {
      this.#loggedCode = code;
      // The message names the relay's answer or the local error, never the key.
      this.#options.logger?.warn('relay connection failed', { code, reason: message, ...(status !== undefined ? { status } : {}) });
    }
  }

  #setStatus(status: RelayStatus): void {
    if (status === this.#status) return;
    this.#status = status;
    this.#options.onStatus(status);
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as Error & { cause?: { code?: unknown } }).cause;
    return typeof cause?.code === 'string' ? `${error.message} (${cause.code})` : error.message;
  }
  return String(error);
}

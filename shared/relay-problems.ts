// Why the kiosk's stream from the webhook relay is down (electron/core/live/relay-subscriber.ts), as a code the
// connectivity event carries and the settings screen words in every language (issue 13 "Honest status").
export const RELAY_PROBLEM_CODES = [
  /** The relay refused the kiosk key (401/403): it will not fix itself; a manager must enter the right key. */
  'unauthorized',
  /** The relay could not be reached, or the connection dropped. */
  'network',
  /** The relay answered with another status (503 while it shuts down, 5xx) or not with an event stream. */
  'bad_response',
  /** Nothing, not even a heartbeat, arrived within silenceMs: the connection was presumed dead and dropped. */
  'silence',
  /** onEvent or onReset threw: the connection was dropped so the event is replayed from the cursor. */
  'handler_failed',
  /**
   * The stream sent a line or an event larger than the reader's limits (issue 12: a hostile or broken relay must not
   * fill the kiosk's memory): the connection was dropped, and the next one waits out the backoff.
   */
  'oversized',
] as const;
export type RelayProblemCode = (typeof RELAY_PROBLEM_CODES)[number];

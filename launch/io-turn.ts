import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * issue 14 "cold start": lets the event loop answer the I/O waiting for it, in the middle of a long start. The kiosk's
 * start (evaluating the embedded platform's code, building the sandbox and the relay, composing the core) runs in
 * blocks of a tenth of a second and more, and their own I/O resolves through promises and nextTick, so nothing in
 * between gives the loop a turn: the page the browser loads meanwhile waited for all of it at once. Two turns, because
 * a request on a new connection needs two: one accepts the connection, the next reads the request (the web shell then
 * answers it from memory, electron/web-shell/server.ts).
 */
export async function ioTurn(): Promise<void> {
  await nextTurn();
  await nextTurn();
}

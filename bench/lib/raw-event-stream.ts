// One kiosk stream as the relay benches open it (relay-fanout, relay-routing): a raw TCP socket in the bench's process
// that sends the stream's GET and reads the answer as text, cheaper than an HTTP client for thousands of streams (the
// load generator shares the machine with the server it measures). Latencies are read on this process's clock.
import { connect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';

/** How long a stream may take to answer its GET before the bench gives up on it. */
const OPEN_LIMIT_MS = 60_000;

export interface RawEventStream {
  socket: Socket;
  /** Resolves once the server answered 200; rejects on a refusal, a socket error or no answer within 60 s. */
  opened: Promise<void>;
}

/**
 * Connects to 127.0.0.1:`port` and writes `request` (the GET's request line and headers). With `onLine`, every whole
 * line the stream carries (the response head included) is handed to it with the time its chunk arrived; without it the
 * stream is read and dropped unparsed (issue 7: parsing every stream would measure this process, not the server).
 */
export function openRawEventStream(port: number, request: string, onLine: ((line: string, at: number) => void) | null): RawEventStream {
  const socket = connect({ host: '127.0.0.1', port });
  const opened = new Promise<void>((resolve, reject) => {
    let answered = false;
    let partial = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`a stream did not open within ${OPEN_LIMIT_MS / 1000} s`));
    }, OPEN_LIMIT_MS);
    socket.setNoDelay(true);
    socket.on('error', (error) => {
      clearTimeout(timer);
      if (!answered) reject(error);
    });
    socket.on('data', (chunk: Buffer) => {
      const at = onLine ? performance.now() : 0;
      if (!answered) {
        answered = true;
        clearTimeout(timer);
        if (!chunk.subarray(0, 16).toString('latin1').startsWith('HTTP/1.1 200')) {
          socket.destroy();
          reject(new Error(`the stream was refused: ${chunk.subarray(0, 40).toString('latin1')}`));
          return;
        }
        resolve();
      }
      if (!onLine) return;
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) onLine(line, at);
    });
    socket.write(request);
  });
  return { socket, opened };
}

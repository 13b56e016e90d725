/** A minimal Server-Sent Events reader over fetch, for tests: parses id/event/data/retry and comments. */
export interface SseMessage {
  id: string | null;
  event: string;
  data: string;
}

export interface SseConnection {
  status: number;
  messages: SseMessage[];
  comments: string[];
  retry: number | null;
  /** Resolves once `predicate` holds over the messages received so far (rejects after timeoutMs). */
  until(predicate: (messages: SseMessage[]) => boolean, timeoutMs?: number): Promise<SseMessage[]>;
  /** The id of the last message that carried one: what a reconnect sends as Last-Event-ID. */
  lastEventId: string | null;
  closed: Promise<void>;
  close(): void;
}

export async function connectSse(url: string, options: { key?: string; lastEventId?: string | null; headers?: Record<string, string> } = {}): Promise<SseConnection> {
  const controller = new AbortController();
  const headers: Record<string, string> = { accept: 'text/event-stream', ...(options.headers ?? {}) };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  if (options.lastEventId) headers['last-event-id'] = options.lastEventId;
  const response = await fetch(url, { headers, signal: controller.signal });
  const messages: SseMessage[] = [];
  const comments: string[] = [];
  const waiters = new Set<() => void>();
  const connection: SseConnection = {
    status: response.status,
    messages,
    comments,
    retry: null,
    lastEventId: options.lastEventId ?? null,
    closed: Promise.resolve(),
    async until(predicate, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(messages)) {
        if (Date.now() > deadline) throw new Error(`SSE: condition not met after ${timeoutMs} ms; got ${messages.length} messages: ${messages.slice(-3).map((m) => m.event).join(', ')}`);
        await new Promise<void>((resolve) => {
          waiters.add(resolve);
          setTimeout(() => {
            waiters.delete(resolve);
            resolve();
          }, 50);
        });
      }
      return messages;
    },
    close: () => controller.abort(),
  };
  if (!response.body || response.status !== 200) {
    await response.text().catch(() => undefined);
    return connection;
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  connection.closed = (async () => {
    let buffer = '';
    let current: { id: string | null; event: string; data: string[] } = { id: null, event: 'message', data: [] };
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let newline: number;
        while ((newline = buffer.indexOf('\n')) !== -1) {
          const line = buffer.slice(0, newline).replace(/\r$/, '');
          buffer = buffer.slice(newline + 1);
          if (line === '') {
            if (current.data.length > 0 || current.id !== null) {
              messages.push({ id: current.id, event: current.event, data: current.data.join('\n') });
              if (current.id !== null) connection.lastEventId = current.id;
              for (const w of waiters) w();
            }
            current = { id: null, event: 'message', data: [] };
          } else if (line.startsWith(':')) {
            comments.push(line.slice(1).trim());
          } else {
            const colon = line.indexOf(':');
            const field = colon === -1 ? line : line.slice(0, colon);
            const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
            if (field === 'id') current.id = value;
            else if (field === 'event') current.event = value;
            else if (field === 'data') current.data.push(value);
            else if (field === 'retry') connection.retry = Number(value);
          }
        }
      }
    } catch {
      // aborted or dropped: the test decides what that means
    }
  })();
  return connection;
}

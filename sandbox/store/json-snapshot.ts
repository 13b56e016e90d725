/**
 * A deep copy of a JSON response body, for the idempotency store's replay snapshot (seed 4.3: a replay shows the first
 * response, even after the live order changed). structuredClone did the same job but was the largest single cost of a
 * create (issue 7 throughput); response bodies are trees of plain objects, arrays and primitives, which this copies
 * directly. Anything else (a Date, a Map, a class instance) and trees deeper than any response are handed to
 * structuredClone, so the result is always what structuredClone would have produced for JSON purposes.
 */
const MAX_DEPTH = 64;

export function snapshotJson<T>(value: T): T {
  return copy(value, 0) as T;
}

function copy(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth > MAX_DEPTH) return structuredClone(value);
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i += 1) out[i] = copy(value[i], depth + 1);
    return out;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return structuredClone(value);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = copy((value as Record<string, unknown>)[key], depth + 1);
    // A body echoing client JSON may carry an own "__proto__" key; assigning it would set the prototype instead.
    if (key === '__proto__') Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
    else out[key] = item;
  }
  return out;
}

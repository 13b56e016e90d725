/**
 * Reads a fetch Response's body whole, but never more than `max` bytes: a declared Content-Length over `max` is
 * refused unread, and a body that grows past it is cancelled at the first chunk that does (the platform's QR file,
 * issue 16; the update feed's channel file, issue 18). `tooLarge` makes the caller's own error for both cases.
 */
export async function readCappedBody(response: Response, max: number, tooLarge: () => Error): Promise<Buffer> {
  if (Number(response.headers.get('content-length') ?? 0) > max) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!response.body) return Buffer.alloc(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

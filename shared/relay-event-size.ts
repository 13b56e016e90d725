/**
 * The largest relay event, one limit for both ends (issue 27 item 5): the relay refuses to store an event whose data
 * (the JSON the kiosk receives, in UTF-8 bytes) is larger (413), and the kiosk's event-stream reader takes any event up
 * to it. A notification is about a kilobyte (platform-facts "Webhooks": the body names the resource, it does not carry
 * it), an IPN's fetched order a few: 64 KiB is ample for both.
 *
 * The kiosk counts in UTF-16 code units (how JavaScript measures a string). A string's UTF-8 byte length is never
 * smaller than its UTF-16 length (1 byte per ASCII unit, 2 or 3 per other BMP unit, 4 per surrogate pair of 2 units),
 * so every event the relay stores fits the kiosk's limit.
 */
export const MAX_RELAY_EVENT_BYTES = 64 * 1024;

/** The UTF-8 size of an event's data, as the relay measures it against MAX_RELAY_EVENT_BYTES. */
export function relayEventBytes(data: string): number {
  // Counted by hand: shared/ has no Buffer nor TextEncoder (tsconfig.shared.json). A lone surrogate is encoded as
  // U+FFFD (3 bytes), as Buffer and TextEncoder do.
  let bytes = 0;
  for (let i = 0; i < data.length; i += 1) {
    const unit = data.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < data.length && (data.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i += 1;
    } else bytes += 3;
  }
  return bytes;
}

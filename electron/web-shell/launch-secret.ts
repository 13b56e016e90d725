import type { IncomingMessage } from 'node:http';
import { randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The web shell's per-launch secret (issue 4) and the one-time codes that stand for it on a browser's command line
 * (issue 27 item 4): a request is the launch's when it carries the secret (header or ?k=) or the launch cookie that a
 * code was traded for. Every comparison takes constant time.
 */
export class LaunchSecret {
  readonly secret: string;
  readonly #secretBuffer: Buffer;
  readonly #codeTtlMs: number;
  /** One-time launch codes not used yet, each with when it expires. */
  readonly #codes = new Map<string, number>();
  /** Set once the shell knows its port (cookieFor). */
  #cookieName = '';

  constructor(secret: string | undefined, codeTtlMs: number) {
    this.secret = secret ?? randomBytes(24).toString('hex');
    this.#secretBuffer = Buffer.from(this.secret);
    this.#codeTtlMs = codeTtlMs;
  }

  /**
   * The launch cookie's name for the shell's port: a cookie is kept per host, not per port (RFC 6265 8.5), so the
   * port in its name keeps two kiosks' apart.
   */
  listeningOn(port: number): void {
    this.#cookieName = `kiosk-launch-${port}`;
  }

  /** A new one-time code, valid for codeTtlMs. */
  newCode(): string {
    const code = randomBytes(24).toString('hex');
    this.#codes.set(code, Date.now() + this.#codeTtlMs);
    return code;
  }

  /** Uses up a code: true once, for a code made by newCode() within codeTtlMs; false ever after. */
  takeCode(given: string | null): boolean {
    if (!given) return false;
    const now = Date.now();
    const buffer = Buffer.from(given);
    let found: string | null = null;
    for (const [code, expiresAt] of this.#codes) {
      if (expiresAt <= now) this.#codes.delete(code);
      else if (Buffer.byteLength(code) === buffer.length && timingSafeEqual(Buffer.from(code), buffer)) found = code;
    }
    if (found === null) return false;
    this.#codes.delete(found);
    return true;
  }

  /**
   * The cookie a used code sets: HttpOnly (no script reads it), SameSite=Strict (no other site's page sends it), for
   * this session only.
   */
  setCookie(): string {
    return `${this.#cookieName}=${this.secret}; HttpOnly; SameSite=Strict; Path=/`;
  }

  /** The secret given (header or ?k=) or, failing that, the launch cookie. */
  authorizes(req: IncomingMessage, given: string | undefined | null): boolean {
    return this.#matches(given) || this.#matches(this.#cookieSecret(req));
  }

  #matches(given: string | undefined | null): boolean {
    if (!given) return false;
    const buffer = Buffer.from(given);
    return buffer.length === this.#secretBuffer.length && timingSafeEqual(buffer, this.#secretBuffer);
  }

  #cookieSecret(req: IncomingMessage): string | undefined {
    for (const part of String(req.headers.cookie ?? '').split(';')) {
      const eq = part.indexOf('=');
      if (eq !== -1 && part.slice(0, eq).trim() === this.#cookieName) return part.slice(eq + 1).trim();
    }
    return undefined;
  }
}

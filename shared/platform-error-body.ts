// platform-facts "Error bodies (decision)": the real platform's older APIs (legacy payments and their lookups, Stores
// and POS) answer errors as {message, error, status, cause[]}, the shape the official SDKs read (mercadopago 3.x
// fills its error's `message`, `error`, `status` and `causes` from it). One builder for every API that uses it.

export interface PlatformErrorCause {
  code: string;
  description: string;
  /** The offending field or fields, comma-separated, when the failure names any (the platform's `data`). */
  data?: string;
}

export interface PlatformErrorBody {
  message: string;
  error: string;
  status: number;
  cause: PlatformErrorCause[];
}

/**
 * The code goes in `error` and in `cause[0].code`, so a client reading either finds it (the SDKs read both); `fields`,
 * when any, go in `cause[0].data`.
 */
export function platformErrorBody(code: string, status: number, message: string, fields: readonly string[] = []): PlatformErrorBody {
  const cause: PlatformErrorCause = { code, description: message };
  if (fields.length > 0) cause.data = fields.join(', ');
  return { message, error: code, status, cause: [cause] };
}

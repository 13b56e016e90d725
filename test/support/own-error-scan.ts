import { KIOSK_ERRORS } from '../../shared/kiosk-errors.ts';

// issue 28 "No HTTP status or error text for a kiosk code is written outside the table": what the scan of the shells'
// sources looks for. A status is written as a literal in one of the shapes a Node or Fastify server sets one; the ones
// a success or a cache answer needs (200, 204, 304) are allowed. A text is any message of the kiosk's table
// (shared/kiosk-errors.ts) copied into a string. Comment lines are skipped: they may name a status to say why.

/** Statuses a shell may still write: success and caching answers, never a refusal. */
export const ALLOWED_STATUSES: ReadonlySet<number> = new Set([200, 204, 304]);

/** Each pattern captures the status literal in its first group. */
const STATUS_PATTERNS: ReadonlyArray<{ shape: string; pattern: RegExp }> = [
  { shape: 'writeHead(status', pattern: /\bwriteHead\(\s*(\d{3})\b/g },
  { shape: 'statusCode = status', pattern: /\bstatusCode\s*=\s*(\d{3})\b/g },
  { shape: '.status(status) / .code(status) / .sendStatus(status)', pattern: /\.(?:status|code|sendStatus)\(\s*(\d{3})\b/g },
  { shape: 'status: status', pattern: /\b(?:status|statusCode)\s*:\s*(\d{3})\b/g },
  { shape: 'a reply helper given (res, status', pattern: /\b\w+\(\s*(?:res|reply|response)\s*,\s*(\d{3})\b/g },
  { shape: 'HTTP/1.x status line', pattern: /HTTP\/1\.[01] (\d{3})\b/g },
  { shape: 'a status chosen by a conditional', pattern: /[?:]\s*([1-5]\d\d)\s*(?=[:;,)])/g },
];

export interface OwnError {
  file: string;
  line: number;
  what: string;
}

/** The status literals and copies of the table's texts in one source file; none when it answers from the table. */
export function findOwnErrors(file: string, source: string): OwnError[] {
  const found: OwnError[] = [];
  const messages = Object.entries(KIOSK_ERRORS).map(([code, spec]) => ({ code, message: spec.message }));
  source.split('\n').forEach((text, index) => {
    const trimmed = text.trimStart();
    if (trimmed.startsWith('//') || trimmed.startsWith('*') || trimmed.startsWith('/*')) return;
    const line = index + 1;
    for (const { shape, pattern } of STATUS_PATTERNS) {
      for (const match of text.matchAll(pattern)) {
        const status = Number(match[1]);
        if (status >= 100 && status <= 599 && !ALLOWED_STATUSES.has(status)) found.push({ file, line, what: `status ${status} written as ${shape}` });
      }
    }
    for (const { code, message } of messages) {
      if (text.includes(message)) found.push({ file, line, what: `the table's text for ${code}` });
    }
  });
  return found;
}

export function describeOwnErrors(found: readonly OwnError[]): string {
  return found.map((f) => `${f.file}:${f.line}: ${f.what}`).join('\n');
}

import { readdir, readFile } from 'node:fs/promises';
import { arch, platform, release, type as osType } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import type { Clock } from '../ports.ts';
import type { AuditEntry } from '../store/audit-log.ts';
import type { EffectiveSettings } from '../settings/kiosk-settings.ts';
import { redactAgain } from '../host/logger.ts';
import type { ArchiveFile } from './archive.ts';
import type { PlatformAnswerNote } from '../platform/answer-journal.ts';
import type { Connectivity, OutboxItem, SessionState } from '../../../shared/kiosk-api.ts';
import { SUPPORT_BUNDLE_DAYS } from '../../../shared/support-api.ts';
import projectPackage from '../../../package.json' with { type: 'json' };

// issue 18 "Support bundle": what goes into the bundle, file by file. Each part is decided to be safe on its own
// (no token, client secret, relay key, PIN, PIN hash or pepper is ever read into it: settings come from the effective
// settings, not the tables; the outbox without amounts; the audit log without its details), and then every file
// passes through the logger's redaction again with the running kiosk's secrets (a second net, redactAgain).

const DAY_MS = 24 * 60 * 60 * 1000;

/** One change of connectivity as the core announced it, with when. */
export interface ConnectivityChange extends Connectivity {
  at: string;
}

export interface DiagnosticsSources {
  clock: Clock;
  db: Database.Database;
  /** The Electron shell's log folder (kiosk.log, kiosk.1.log); the web shell logs to standard error and has none. */
  logsDir: string;
  training: boolean;
  settings(): EffectiveSettings;
  relayKeySaved(): boolean;
  session(): SessionState;
  connectivity(): Connectivity;
  connectivityHistory(): readonly ConnectivityChange[];
  outbox(): OutboxItem[];
  audit(limit: number): AuditEntry[];
  /** The running kiosk's secrets (KioskCore.secrets()), for the second redaction. */
  secrets(): readonly string[];
  /** issue 26: platform answers the kiosk could not fully read, already redacted (platform/answer-journal.ts). */
  platformAnswers?(): readonly PlatformAnswerNote[];
}

/** A part that could not be read: named in the manifest, the rest of the bundle is still made. */
export interface PartProblem {
  part: string;
  reason: string;
}

/** The bundle's files (manifest.json aside) and the parts that could not be read. */
export async function collectDiagnostics(sources: DiagnosticsSources): Promise<{ files: ArchiveFile[]; problems: PartProblem[] }> {
  const now = sources.clock.now();
  const since = now - SUPPORT_BUNDLE_DAYS * DAY_MS;
  const secrets = sources.secrets();
  const problems: PartProblem[] = [];
  const files: ArchiveFile[] = [];
  const part = (name: string, make: () => unknown) => {
    try {
      files.push({ name, text: redactAgain(`${JSON.stringify(make(), null, 2)}\n`, secrets) });
    } catch (error) {
      problems.push({ part: name, reason: error instanceof Error ? redactAgain(error.message, secrets) : 'unknown' });
    }
  };

  part('versions.json', () => versions(sources));
  part('settings.json', () => safeSettings(sources));
  part('connectivity.json', () => ({
    now: sources.connectivity(),
    session: sessionSummary(sources.session()),
    // Kept in memory since the kiosk started (the core keeps no older connectivity history).
    changesSinceStart: sources.connectivityHistory(),
    // Who did what, without the entries' details (they can hold amounts and names).
    audit: sources
      .audit(1000)
      .filter((entry) => Date.parse(entry.at) >= since)
      .map((entry) => ({ at: entry.at, actor: entry.actor, action: entry.action })),
  }));
  part('outbox.json', () => outboxSummary(sources.outbox()));
  part('database.json', () => databaseCheck(sources.db));
  // issue 26: so a new platform value is diagnosable; kept since the kiosk started (the log has them too).
  part('platform-answers.json', () => ({ keptSinceStart: true, answers: sources.platformAnswers?.() ?? [] }));
  for (const file of await logFiles(sources.logsDir, since, secrets, problems)) files.push(file);
  return { files, problems };
}

function versions(sources: DiagnosticsSources) {
  const sqlite = sources.db.prepare<[], { v: string }>('SELECT sqlite_version() AS v').get()?.v ?? null;
  return {
    app: projectPackage.version,
    mode: sources.training ? 'training' : 'live',
    node: process.versions.node,
    electron: process.versions.electron ?? null,
    chromium: process.versions.chrome ?? null,
    sqlite,
    os: { platform: platform(), type: osType(), release: release(), arch: arch() },
  };
}

/** The settings in force; the relay key only as "saved or not", the relay URL without credentials or query. */
function safeSettings(sources: DiagnosticsSources) {
  const s = sources.settings();
  return { ...s, relayUrl: s.relayUrl ? bareUrl(s.relayUrl) : null, relayKeySaved: sources.relayKeySaved() };
}

function bareUrl(text: string): string {
  try {
    const url = new URL(text);
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return '[not a URL]';
  }
}

/** The session without the seller's problem text (the codes say it). */
function sessionSummary(session: SessionState) {
  return { state: session.state, training: session.training, vault: session.vault, countryCode: session.countryCode, posId: session.posId, problemCode: session.problemCode };
}

/** Counts by kind and state, and each waiting or failed item's state, attempts and error code: no amounts. */
function outboxSummary(items: OutboxItem[]) {
  const counts: Record<string, number> = {};
  for (const item of items) counts[`${item.kind}.${item.state}`] = (counts[`${item.kind}.${item.state}`] ?? 0) + 1;
  return {
    counts,
    pending: items
      .filter((item) => item.state !== 'done')
      .map((item) => ({
        kind: item.kind,
        state: item.state,
        attempts: item.attempts,
        createdAt: item.createdAt,
        nextAttemptAt: item.nextAttemptAt ?? null,
        errorCode: item.lastError ? (item.lastError.rawCode ?? item.lastError.code) : null,
      })),
  };
}

/** SQLite's own check of the whole file (issue 12 refuses a file that fails it at start; this says how it is now). */
function databaseCheck(db: Database.Database) {
  const rows = db.pragma('integrity_check') as { integrity_check: string }[];
  const messages = rows.map((row) => row.integrity_check);
  return {
    integrityCheck: messages.length === 1 && messages[0] === 'ok' ? 'ok' : messages.slice(0, 100),
    schemaVersion: db.pragma('user_version', { simple: true }),
    pageCount: db.pragma('page_count', { simple: true }),
    pageSize: db.pragma('page_size', { simple: true }),
    journalMode: db.pragma('journal_mode', { simple: true }),
  };
}

/** kiosk.log and kiosk.1.log: their lines of the last days, each redacted again (they were when written). */
async function logFiles(dir: string, since: number, secrets: readonly string[], problems: PartProblem[]): Promise<ArchiveFile[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => /^kiosk(\.\d+)?\.log$/.test(name)).sort();
  } catch {
    // No log folder: the web shell logs to standard error (README "Where data and logs live").
    problems.push({ part: 'logs', reason: 'no log folder (the web shell logs to standard error)' });
    return [];
  }
  const files: ArchiveFile[] = [];
  for (const name of names) {
    try {
      const lines = (await readFile(join(dir, name), 'utf8')).split('\n').filter((line) => line.trim() !== '' && lineTime(line) >= since);
      files.push({ name: `logs-${name}`, text: lines.map((line) => `${redactAgain(line, secrets, { jsonLine: true })}\n`).join('') });
    } catch (error) {
      problems.push({ part: `logs-${name}`, reason: error instanceof Error ? error.name : 'unknown' });
    }
  }
  return files;
}

/** A log line's time in ms; a line without one (cut short) is kept: +Infinity. */
function lineTime(line: string): number {
  const match = /^\{"time":"([^"]+)"/.exec(line);
  const time = match ? Date.parse(match[1] ?? '') : Number.NaN;
  return Number.isNaN(time) ? Number.POSITIVE_INFINITY : time;
}

import Database from 'better-sqlite3';
import { configureSqlite, migrateSqlite, type SqlitePragmas } from '../node-common/sqlite.ts';

// The relay's SQLite file (README "Settings", --data): the event log (relay/log/sqlite-log.ts) and the fleet
// (relay/fleet-store.ts) live in it, each on a connection of its own, under one schema version (user_version) and one
// list of numbered migrations (style guide 11, after Signal's ts/sql/migrations). Whichever opens the file first brings
// it up to date; the other then finds nothing to do. Append new steps at the end; never edit one that shipped.

/** The fleet's heartbeat table as issue 27 shaped it: one record per (seller, kiosk id), owned by a kiosk key's id. */
const FLEET_BEATS = (name: string) => `CREATE TABLE ${name} (
     seller TEXT NOT NULL,
     kiosk_id TEXT NOT NULL,
     key_id TEXT NOT NULL,
     heartbeat TEXT NOT NULL,
     received_at INTEGER NOT NULL,
     PRIMARY KEY (seller, kiosk_id)
   ) STRICT;`;

export const RELAY_MIGRATIONS: readonly string[] = [
  `CREATE TABLE events (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     user_id TEXT NOT NULL,
     pos_id TEXT,
     type TEXT NOT NULL,
     received_at INTEGER NOT NULL,
     payload TEXT NOT NULL
   ) STRICT;
   CREATE INDEX events_received_at ON events (received_at);
   CREATE TABLE request_ids (request_id TEXT PRIMARY KEY, body_hash TEXT NOT NULL, received_at INTEGER NOT NULL) STRICT;
   CREATE INDEX request_ids_received_at ON request_ids (received_at);
   CREATE TABLE order_versions (order_id TEXT PRIMARY KEY, version INTEGER NOT NULL, updated_at INTEGER NOT NULL) STRICT;
   CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;`,
  // issue 12: data.version is unsigned, so it no longer orders or drops anything; what was kept for it goes.
  `DROP TABLE order_versions;`,
  // issue 14 "Relay routing": a stream reads its seller's events only, by this index, whatever else the log holds.
  `CREATE INDEX events_user_id ON events (user_id, id);`,
  // issue 28: the fleet's tables join the numbered migrations. Until now the fleet store created them on every start,
  // outside the version (issue 18: fleet_kiosks; issue 26: fleet_test_notifications; issue 27: fleet_beats, whose
  // primary key was first (seller, key_id, kiosk_id), and fleet_kiosks dropped). A file any of those left behind keeps
  // every row: each table is made if absent so the copy below can read it, the records of both shapes are copied into
  // today's shape (the newest per seller and kiosk id wins), and a record from fleet_kiosks, which had no owner, gets
  // the empty key id: the next heartbeat's key takes it over, as an owner-less Redis record is (relay/fleet-store.ts).
  `CREATE TABLE IF NOT EXISTS fleet_kiosks (
     seller TEXT NOT NULL, kiosk_id TEXT NOT NULL, heartbeat TEXT NOT NULL, received_at INTEGER NOT NULL, PRIMARY KEY (seller, kiosk_id)
   ) STRICT;
   CREATE TABLE IF NOT EXISTS fleet_beats (
     seller TEXT NOT NULL, kiosk_id TEXT NOT NULL, key_id TEXT NOT NULL, heartbeat TEXT NOT NULL, received_at INTEGER NOT NULL, PRIMARY KEY (seller, kiosk_id)
   ) STRICT;
   ${FLEET_BEATS('fleet_beats_v4')}
   INSERT OR REPLACE INTO fleet_beats_v4 (seller, kiosk_id, key_id, heartbeat, received_at)
     SELECT seller, kiosk_id, key_id, heartbeat, received_at FROM (
       SELECT seller, kiosk_id, '' AS key_id, heartbeat, received_at FROM fleet_kiosks
       UNION ALL
       SELECT seller, kiosk_id, key_id, heartbeat, received_at FROM fleet_beats
     ) ORDER BY received_at;
   DROP TABLE fleet_kiosks;
   DROP TABLE fleet_beats;
   ALTER TABLE fleet_beats_v4 RENAME TO fleet_beats;
   CREATE INDEX fleet_beats_received_at ON fleet_beats (received_at);
   CREATE TABLE IF NOT EXISTS fleet_test_notifications (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     record TEXT NOT NULL
   ) STRICT;`,
];

/**
 * Opens the relay's SQLite file (':memory:' for a relay that keeps nothing) and brings it to RELAY_MIGRATIONS' version.
 * Throws, changing nothing, for a file a newer relay wrote (its version is above this code's) or one that is not a
 * database; the connection is closed first.
 */
export function openRelaySqlite(file: string, pragmas: SqlitePragmas): Database.Database {
  const db = new Database(file);
  try {
    configureSqlite(db, pragmas);
    migrateSqlite(db, RELAY_MIGRATIONS, { newer: (version, known) => new Error(`${file}: schema version ${version} is newer than this relay understands (${known})`) });
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

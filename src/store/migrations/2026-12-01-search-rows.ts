/**
 * SQLite: find a call's full-text row through an index. `call_search.call_id` is UNINDEXED (FTS5 columns have no
 * B-tree), so `delete from call_search where call_id = ?` read every row of the index: the scoring worker's
 * re-index and the delete trigger grew with the number of calls (measured: one worker fell from 95 to 69 calls/s
 * between 250 and 1,000 queued calls). `call_search_rows` maps each call to its FTS rowid. A separate narrow table,
 * because a column on call_transcripts would rewrite the whole transcript row on every index. PostgreSQL keeps
 * its tsvector column and needs nothing. Frozen once shipped.
 */
import { sql, type Kysely } from 'kysely';
import { isSqlite } from './2026-11-29-search.js';

export async function up(db: Kysely<any>): Promise<void> {
  if (!isSqlite(db)) return;
  await sql`create table call_search_rows (call_id text primary key, fts_rowid integer not null)`.execute(db);
  await sql`insert or replace into call_search_rows (call_id, fts_rowid) select call_id, rowid from call_search`.execute(
    db,
  );
  await sql`drop trigger call_search_delete`.execute(db);
  await sql`create trigger call_search_delete after delete on call_transcripts begin
      delete from call_search where rowid = (select fts_rowid from call_search_rows where call_id = old.call_id);
      delete from call_search_rows where call_id = old.call_id;
    end`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isSqlite(db)) return;
  await sql`drop trigger call_search_delete`.execute(db);
  await sql`drop table call_search_rows`.execute(db);
  await sql`create trigger call_search_delete after delete on call_transcripts begin
      delete from call_search where call_id = old.call_id;
    end`.execute(db);
}

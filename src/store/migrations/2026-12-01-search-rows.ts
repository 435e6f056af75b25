/**
 * SQLite: a contentless full-text index keyed through an indexed map. The FTS5 table of 2026-11-29 stored each
 * transcript's text a second time and found a call's entry by its UNINDEXED call_id, i.e. by reading every row:
 * the scoring worker's re-index and the delete trigger grew with the number of calls (measured: one worker fell
 * from 95 to 69 calls/s between 250 and 1,000 queued calls). Now `call_search_rows` gives each call an integer
 * rowid, and `call_search` (content='', contentless_delete=1) holds only the index under that rowid.
 * PostgreSQL keeps its tsvector column and needs nothing. Frozen once shipped.
 */
import { sql, type Kysely } from 'kysely';
import { createSqliteSearch, isSqlite, transcriptText } from './2026-11-29-search.js';

export async function up(db: Kysely<any>): Promise<void> {
  if (!isSqlite(db)) return;
  await sql`drop trigger call_search_delete`.execute(db);
  await sql`drop table call_search`.execute(db);
  await sql`create table call_search_rows (fts_rowid integer primary key, call_id text not null unique)`.execute(
    db,
  );
  await sql`create virtual table call_search using fts5(body, content='', contentless_delete=1)`.execute(db);
  await sql`insert into call_search_rows (call_id) select call_id from call_transcripts`.execute(db);
  await sql`insert into call_search (rowid, body)
      select r.fts_rowid, ${transcriptText('x')} from call_search_rows r join call_transcripts x on x.call_id = r.call_id`.execute(
    db,
  );
  await sql`create trigger call_search_delete after delete on call_transcripts begin
      delete from call_search where rowid = (select fts_rowid from call_search_rows where call_id = old.call_id);
      delete from call_search_rows where call_id = old.call_id;
    end`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isSqlite(db)) return;
  await sql`drop trigger call_search_delete`.execute(db);
  await sql`drop table call_search`.execute(db);
  await sql`drop table call_search_rows`.execute(db);
  await createSqliteSearch(db); // the structures of 2026-11-29 as they were
}

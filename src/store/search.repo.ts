/**
 * The transcript search index (structures of migration 2026-11-29-search), written by the scoring worker so the
 * cost stays off the ingest request. Idempotent: indexing a call again replaces its entry.
 */
import { sql, type Kysely } from 'kysely';
import type { Dialect } from './db.js';
import type { Database } from './schema.js';

/** Indexes (or re-indexes) one call's transcript text; unreadable turns index as no text. */
export async function indexCallForSearch(
  db: Kysely<Database>,
  dialect: Dialect,
  callId: string,
): Promise<void> {
  if (dialect === 'postgres') {
    await sql`update call_transcripts set search = call_search_document(turns) where call_id = ${callId}`.execute(
      db,
    );
    return;
  }
  // The contentless FTS5 index (migration 2026-12-01) keys each call by its integer rowid in call_search_rows;
  // an entry is replaced by deleting it first (a second insert under the same rowid would add to it).
  await db.transaction().execute(async (tx) => {
    await sql`insert or ignore into call_search_rows (call_id) values (${callId})`.execute(tx);
    const { rows } = await sql<{
      fts_rowid: number;
    }>`select fts_rowid from call_search_rows where call_id = ${callId}`.execute(tx);
    const rowid = rows[0]!.fts_rowid;
    await sql`delete from call_search where rowid = ${rowid}`.execute(tx);
    await sql`insert into call_search (rowid, body)
      select ${rowid}, case when json_valid(turns) then (select group_concat(json_extract(value, '$.text'), char(10))
        from json_each(turns) where type = 'object') end
      from call_transcripts where call_id = ${callId}`.execute(tx);
  });
}

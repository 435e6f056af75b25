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
  // call_search_rows finds the old entry by its rowid: FTS5's call_id column has no index (migration 2026-12-01).
  await db.transaction().execute(async (tx) => {
    await sql`delete from call_search where rowid = (select fts_rowid from call_search_rows where call_id = ${callId})`.execute(
      tx,
    );
    await sql`delete from call_search_rows where call_id = ${callId}`.execute(tx);
    const inserted = await sql`insert into call_search (call_id, body)
      select call_id, case when json_valid(turns) then (select group_concat(json_extract(value, '$.text'), char(10))
        from json_each(turns) where type = 'object') end
      from call_transcripts where call_id = ${callId}`.execute(tx);
    if (inserted.numAffectedRows) {
      await sql`insert into call_search_rows (call_id, fts_rowid) values (${callId}, last_insert_rowid())`.execute(
        tx,
      );
    }
  });
}

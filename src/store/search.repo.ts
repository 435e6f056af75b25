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
  await db.transaction().execute(async (tx) => {
    await sql`delete from call_search where call_id = ${callId}`.execute(tx);
    await sql`insert into call_search (call_id, body)
      select call_id, case when json_valid(turns) then (select group_concat(json_extract(value, '$.text'), char(10))
        from json_each(turns) where type = 'object') end
      from call_transcripts where call_id = ${callId}`.execute(tx);
  });
}

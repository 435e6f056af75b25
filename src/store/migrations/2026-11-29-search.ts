/**
 * Full-text search over transcripts (the library's `q`). The one migration with dialect-specific DDL, since
 * each engine has its own full-text machinery; the matching query lives in web-calls.repo.ts. Frozen once
 * shipped.
 *
 * Indexing is NOT done on the ingest path (it would cost ~1 ms per 40 KB call and ~45 ms per 1 MiB call inside
 * the request's transaction): the scoring worker indexes each call it processes (store/search.repo.ts), so a
 * call becomes searchable moments after its 202. Existing transcripts are backfilled here.
 *
 * SQLite: an FTS5 table `call_search(call_id UNINDEXED, body)`, body = the turns' text joined by newlines; a
 * delete trigger keeps it from outliving its transcript.
 * PostgreSQL: a `search tsvector` column on call_transcripts with a GIN index, filled with
 * `call_search_document(turns)`, an immutable function giving the tsvector of the turns' text values
 * (`jsonb_path_query_array` keeps speaker names and keys out).
 *
 * Both sides tolerate turns that are not a JSON array of objects (indexed as no text): a search index must
 * never make a transcript write fail.
 */
import { SqliteAdapter, sql, type Kysely } from 'kysely';

/**
 * The dialect under `db`, from Kysely's adapter. (Probing with `select sqlite_version()` would abort the
 * PostgreSQL migration's transaction on failure.)
 */
export function isSqlite(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}

/** The turns' text, newline-joined, of a call_transcripts row (`x` or `new` in a trigger); null if unreadable. */
export const transcriptText = (row: string) =>
  sql.raw(
    `(case when json_valid(${row}.turns) then (select group_concat(json_extract(value, '$.text'), char(10))` +
      ` from json_each(${row}.turns) where type = 'object') end)`,
  );

/** SQLite: this migration's FTS5 table, filled from every transcript, and its delete trigger. */
export async function createSqliteSearch(db: Kysely<any>): Promise<void> {
  await sql`create virtual table call_search using fts5(call_id unindexed, body)`.execute(db);
  await sql`insert into call_search (call_id, body) select x.call_id, ${transcriptText('x')} from call_transcripts x`.execute(
    db,
  );
  await sql`create trigger call_search_delete after delete on call_transcripts begin
      delete from call_search where call_id = old.call_id;
    end`.execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  if (isSqlite(db)) return createSqliteSearch(db);
  await sql`create function call_search_document(turns text) returns tsvector
    language plpgsql immutable parallel safe set search_path = pg_catalog as $$
    begin
      return to_tsvector('simple', jsonb_path_query_array(turns::jsonb, '$[*].text'));
    exception when others then
      return ''::tsvector;
    end $$`.execute(db);
  await sql`alter table call_transcripts add column search tsvector`.execute(db);
  await sql`update call_transcripts set search = call_search_document(turns)`.execute(db);
  await sql`create index call_transcripts_search on call_transcripts using gin (search)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isSqlite(db)) {
    await sql`drop trigger call_search_delete`.execute(db);
    await sql`drop table call_search`.execute(db);
    return;
  }
  await sql`drop index call_transcripts_search`.execute(db);
  await sql`alter table call_transcripts drop column search`.execute(db);
  await sql`drop function call_search_document(text)`.execute(db);
}

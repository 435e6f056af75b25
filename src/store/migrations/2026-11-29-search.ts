/**
 * Full-text search over transcripts (the library's `q`). The one migration with dialect-specific DDL, since
 * each engine has its own full-text machinery; the matching query lives in web-calls.repo.ts. Frozen once
 * shipped.
 *
 * SQLite: an FTS5 table `call_search(call_id UNINDEXED, body)`, body = the turns' text joined by newlines,
 * kept in step with call_transcripts by triggers and backfilled here.
 * PostgreSQL: a GIN expression index on `call_search_document(turns)`, an immutable function giving the
 * tsvector of the turns' text values (`jsonb_path_query_array` keeps speaker names and keys out). The query in
 * web-calls.repo.ts calls the same function, so the planner uses the index.
 *
 * Both sides tolerate turns that are not a JSON array of objects (indexed as no text): a search index must
 * never make a transcript write fail.
 */
import { SqliteAdapter, sql, type Kysely } from 'kysely';

/**
 * The dialect under `db`, from Kysely's adapter. (Probing with `select sqlite_version()` would abort the
 * PostgreSQL migration's transaction on failure.)
 */
function isSqlite(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}

/** The turns' text, newline-joined, of a call_transcripts row (`x` or `new` in a trigger); null if unreadable. */
const body = (row: string) =>
  sql.raw(
    `(case when json_valid(${row}.turns) then (select group_concat(json_extract(value, '$.text'), char(10))` +
      ` from json_each(${row}.turns) where type = 'object') end)`,
  );

export async function up(db: Kysely<any>): Promise<void> {
  if (isSqlite(db)) {
    await sql`create virtual table call_search using fts5(call_id unindexed, body)`.execute(db);
    await sql`insert into call_search (call_id, body) select x.call_id, ${body('x')} from call_transcripts x`.execute(
      db,
    );
    await sql`create trigger call_search_insert after insert on call_transcripts begin
      insert into call_search (call_id, body) values (new.call_id, ${body('new')});
    end`.execute(db);
    await sql`create trigger call_search_delete after delete on call_transcripts begin
      delete from call_search where call_id = old.call_id;
    end`.execute(db);
    // Transcripts are written once today; this keeps the index right should that ever change.
    await sql`create trigger call_search_update after update of turns on call_transcripts begin
      delete from call_search where call_id = old.call_id;
      insert into call_search (call_id, body) values (new.call_id, ${body('new')});
    end`.execute(db);
    return;
  }
  await sql`create function call_search_document(turns text) returns tsvector
    language plpgsql immutable parallel safe set search_path = pg_catalog as $$
    begin
      return to_tsvector('simple', jsonb_path_query_array(turns::jsonb, '$[*].text'));
    exception when others then
      return ''::tsvector;
    end $$`.execute(db);
  await sql`create index call_transcripts_search on call_transcripts using gin (call_search_document(turns))`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isSqlite(db)) {
    await sql`drop trigger call_search_update`.execute(db);
    await sql`drop trigger call_search_delete`.execute(db);
    await sql`drop trigger call_search_insert`.execute(db);
    await sql`drop table call_search`.execute(db);
    return;
  }
  await sql`drop index call_transcripts_search`.execute(db);
  await sql`drop function call_search_document(text)`.execute(db);
}

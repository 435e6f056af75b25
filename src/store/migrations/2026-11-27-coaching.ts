/**
 * Coaching in the web application: notes on a call or one of its turns, managers' overrides of a criterion score
 * (kept beside the AI result, never replacing it), and an audit trail of managers' actions on a call (reassign,
 * re-run, rep speaker correction). Frozen once shipped. Dialect-neutral: text ids and timestamps; no app imports.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('call_comments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('call_id', 'text', (c) => c.notNull().references('calls.id'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('author_user_id', 'text', (c) => c.notNull().references('users.id'))
    // Index into the call's merged turns; null for a note on the whole call.
    .addColumn('turn_index', 'integer')
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('call_comments_call')
    .on('call_comments')
    .columns(['call_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('criterion_overrides')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('call_id', 'text', (c) => c.notNull().references('calls.id'))
    // The scoring result overridden (no foreign key, like score_results.scorecard_id: history outlives rows).
    .addColumn('result_id', 'text', (c) => c.notNull())
    .addColumn('criterion_key', 'text', (c) => c.notNull())
    // 0..1 like the AI's criterion score.
    .addColumn('score', 'real', (c) => c.notNull())
    .addColumn('comment', 'text', (c) => c.notNull())
    .addColumn('author_user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('criterion_overrides_result')
    .on('criterion_overrides')
    .columns(['result_id', 'criterion_key', 'created_at'])
    .execute();

  await db.schema
    .createTable('call_actions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('call_id', 'text', (c) => c.notNull().references('calls.id'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    // reassign | rerun | speaker
    .addColumn('kind', 'text', (c) => c.notNull())
    // JSON: what changed (from/to).
    .addColumn('detail', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('call_actions_call')
    .on('call_actions')
    .columns(['call_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('call_actions').execute();
  await db.schema.dropTable('criterion_overrides').execute();
  await db.schema.dropTable('call_comments').execute();
}

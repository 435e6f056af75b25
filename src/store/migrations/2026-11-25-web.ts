/**
 * Web application tables: server-side sign-in sessions, plus the indexes the call library's keyset pages need
 * for the narrower visibility scopes (a rep's own calls, a manager's teams). Frozen once shipped.
 * Dialect-neutral: text ids and timestamps; never imports app code.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sessions')
    // Hex SHA-256 of the cookie's random token: a stolen database does not yield usable cookies.
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    // Synchronizer token for every form of this session; compared in constant time.
    .addColumn('csrf_token', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    // Sliding idle expiry, never past absolute_expires_at.
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('absolute_expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();
  await db.schema.createIndex('sessions_expires').on('sessions').column('expires_at').execute();

  // Library pages: newest first by (created_at, id) inside each visibility scope.
  await db.schema
    .createIndex('calls_library_rep')
    .on('calls')
    .columns(['account_id', 'rep_user_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('calls_library_team')
    .on('calls')
    .columns(['account_id', 'team_id', 'created_at', 'id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('calls_library_team').execute();
  await db.schema.dropIndex('calls_library_rep').execute();
  await db.schema.dropTable('sessions').execute();
}

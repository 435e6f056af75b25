/**
 * Admin pages: one-time links for invitations (7 days) and password resets (1 hour). The link carries a random
 * token; only its SHA-256 is stored, so a database leak yields no usable link. Frozen once shipped.
 * Dialect-neutral: text ids and timestamps; never imports app code.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('user_tokens')
    // Hex SHA-256 of the link's random token.
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    // invitation | password_reset
    .addColumn('purpose', 'text', (c) => c.notNull())
    // The admin who issued the link.
    .addColumn('created_by', 'text', (c) => c.references('users.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    // Set when the link was used; a link works once.
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('user_tokens_user').on('user_tokens').columns(['user_id', 'purpose']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('user_tokens_user').execute();
  await db.schema.dropTable('user_tokens').execute();
}

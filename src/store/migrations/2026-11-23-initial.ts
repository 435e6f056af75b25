/**
 * Initial schema. Frozen: never edit a migration that has shipped; add a new one.
 * Dialect-neutral: text ids and timestamps, integer counters, JSON as text.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('features', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('teams')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('teams_account_name', ['account_id', 'name'])
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text')
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('last_sign_in_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('users_account_email', ['account_id', 'email'])
    .execute();

  await db.schema
    .createTable('team_members')
    .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addPrimaryKeyConstraint('team_members_pk', ['team_id', 'user_id'])
    .execute();
  await db.schema.createIndex('team_members_user').on('team_members').column('user_id').execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id'))
    .addColumn('created_by', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('digest', 'text', (c) => c.notNull().unique())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .addColumn('expires_at', 'text')
    .addColumn('last_used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('scorecards')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('current_version', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('scorecards_team_name', ['team_id', 'name'])
    .execute();

  await db.schema
    .createTable('scorecard_versions')
    .addColumn('scorecard_id', 'text', (c) => c.notNull().references('scorecards.id'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('criteria', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('scorecard_versions_pk', ['scorecard_id', 'version'])
    .execute();

  await db.schema
    .createTable('team_settings')
    .addColumn('team_id', 'text', (c) => c.primaryKey().references('teams.id'))
    .addColumn('default_scorecard_id', 'text', (c) => c.references('scorecards.id'))
    .execute();

  await db.schema
    .createTable('team_scorecard_rules')
    .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id'))
    .addColumn('call_type', 'text', (c) => c.notNull())
    .addColumn('scorecard_id', 'text', (c) => c.notNull().references('scorecards.id'))
    .addPrimaryKeyConstraint('team_scorecard_rules_pk', ['team_id', 'call_type'])
    .execute();

  await db.schema
    .createTable('calls')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id'))
    .addColumn('rep_user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('ingest_rep_user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('provider', 'text')
    .addColumn('external_id', 'text')
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('skip_reason', 'text')
    .addColumn('call_type', 'text')
    .addColumn('scorecard_id', 'text', (c) => c.references('scorecards.id'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('rep_speaker', 'text', (c) => c.notNull())
    .addColumn('speaker_source', 'text')
    .addColumn('rep_source', 'text')
    .addColumn('speaker_confidence', 'real')
    .addColumn('recording_id', 'text')
    .addColumn('api_key_id', 'text')
    .addColumn('occurred_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    // Idempotency keys. NULLs are distinct in both databases, so calls made in the web app never collide.
    .addUniqueConstraint('calls_external_id', ['account_id', 'provider', 'external_id'])
    .addUniqueConstraint('calls_same_transcript', ['account_id', 'ingest_rep_user_id', 'fingerprint'])
    .execute();
  await db.schema.createIndex('calls_library').on('calls').columns(['account_id', 'created_at']).execute();

  await db.schema
    .createTable('call_transcripts')
    .addColumn('call_id', 'text', (c) => c.primaryKey().references('calls.id'))
    .addColumn('turns', 'text', (c) => c.notNull())
    .addColumn('participants', 'text')
    .addColumn('metadata', 'text')
    .addColumn('speaker_signals', 'text')
    .execute();

  await db.schema
    .createTable('scoring_jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('call_id', 'text', (c) => c.notNull().references('calls.id'))
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('lease_until', 'text')
    .addColumn('fencing_token', 'integer', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('available_at', 'text', (c) => c.notNull())
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('scoring_jobs_claim')
    .on('scoring_jobs')
    .columns(['status', 'available_at'])
    .execute();

  await db.schema
    .createTable('recordings')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('api_key_id', 'text')
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'integer', (c) => c.notNull())
    .addColumn('filename', 'text')
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('call_id', 'text')
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('uploaded_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'recordings',
    'scoring_jobs',
    'call_transcripts',
    'calls',
    'team_scorecard_rules',
    'team_settings',
    'scorecard_versions',
    'scorecards',
    'api_keys',
    'team_members',
    'users',
    'teams',
    'accounts',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}

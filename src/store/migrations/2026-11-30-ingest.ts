/**
 * Drops `scoring_jobs_claim (status, available_at)`: claims seek `scoring_jobs_account_ready` per account since the
 * scoring migration, and counting jobs by status reads `scoring_jobs_lease`; every ingest still paid for its page
 * write. Frozen once shipped.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('scoring_jobs_claim').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('scoring_jobs_claim')
    .on('scoring_jobs')
    .columns(['status', 'available_at'])
    .execute();
}

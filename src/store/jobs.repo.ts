import type { Kysely, Transaction } from 'kysely';
import { randomUUID } from 'node:crypto';
import type { Database } from './schema.js';

type Db = Kysely<Database> | Transaction<Database>;

/** Queues scoring for a call; written in the same transaction as the call. */
export async function enqueueScoring(db: Db, callId: string, accountId: string, at: string): Promise<void> {
  await db
    .insertInto('scoring_jobs')
    .values({
      id: randomUUID(),
      call_id: callId,
      account_id: accountId,
      status: 'queued',
      lease_until: null,
      fencing_token: 0,
      attempts: 0,
      available_at: at,
      last_error: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
}

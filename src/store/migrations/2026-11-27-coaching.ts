/** Placeholder, filled by the change that needs it. Frozen once shipped. */
import type { Kysely } from 'kysely';

export async function up(_db: Kysely<any>): Promise<void> {}

export async function down(_db: Kysely<any>): Promise<void> {}

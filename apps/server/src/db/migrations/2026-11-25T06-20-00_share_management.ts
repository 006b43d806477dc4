import type { Kysely } from 'kysely';

// Share management (issue 16 item 5): "what I shared" lists a user's shares newest first, and a new share
// looks for the owner's share of the same device with the same recipient; both read by owner.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('device_shares_owner_idx').on('device_shares').columns(['owner_user_id', 'created_at']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('device_shares_owner_idx').execute();
}

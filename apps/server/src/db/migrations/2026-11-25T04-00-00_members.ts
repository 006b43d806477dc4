import type { Kysely } from 'kysely';
import { bigintType, dialectOf } from '../dialect.js';

// Organisation members (issue 17 item 5): the primary user disables and re-enables an account (enabled 0:
// it cannot sign in and its sessions are gone), resets its password to a temporary one that must be changed
// at the next sign-in (must_change_password 1), and reads when each member last signed in (last_sign_in_at,
// epoch ms, null before the first). Existing accounts stay enabled, with nothing to change.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const big = bigintType(dialectOf(db));
  await db.schema.alterTable('users').addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  await db.schema.alterTable('users').addColumn('must_change_password', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('users').addColumn('last_sign_in_at', big).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('last_sign_in_at').execute();
  await db.schema.alterTable('users').dropColumn('must_change_password').execute();
  await db.schema.alterTable('users').dropColumn('enabled').execute();
}

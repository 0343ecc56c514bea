/** Users own keys, usage and jobs; the tier decides what they may do. */
import { randomBytes } from 'node:crypto';
import type { ChangeFeed } from '../cache/change-feed.js';
import type { Tier } from '../config.js';
import type { Db } from '../db/database.js';
import { ServiceError } from '../errors.js';

export const USER_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export interface User {
  readonly id: string;
  readonly tier: Tier;
}

export function newUserId(): string {
  return `user_${randomBytes(8).toString('hex')}`;
}

export function assertUserId(id: string): void {
  if (!USER_ID_PATTERN.test(id)) {
    throw new ServiceError('invalid_request', 'a user id is 1-64 characters of A-Z, a-z, 0-9, _ and -');
  }
}

/** Creates the user with `tier` if it does not exist; an existing user keeps its tier. */
export async function ensureUser(db: Db, id: string, tier: Tier, now: number): Promise<User> {
  assertUserId(id);
  await db
    .insertInto('users')
    .values({ id, tier, created_at: now })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  const user = await findUser(db, id);
  return user!;
}

export async function findUser(db: Db, id: string): Promise<User | undefined> {
  const row = await db.selectFrom('users').select(['id', 'tier']).where('id', '=', id).executeTakeFirst();
  return row && { id: row.id, tier: row.tier as Tier };
}

/** Changes the user's tier (`feed`: the process's change feed, as revokeKey's in keys.ts). */
export async function setTier(db: Db, id: string, tier: Tier, feed?: ChangeFeed): Promise<void> {
  const result = await db.updateTable('users').set({ tier }).where('id', '=', id).executeTakeFirst();
  feed?.changed();
  if (result.numUpdatedRows === 0n) throw new ServiceError('not_found', `no user ${id}`);
}

/**
 * API keys: 256 random bits, shown once, stored only as a sha256 hash. A key is found
 * by its hash (an indexed lookup; findActiveKeys says why its timing gives nothing away).
 */
import { hash, randomBytes } from 'node:crypto';
import type { Tier } from '../config.js';
import type { Db } from '../db/database.js';
import { ServiceError } from '../errors.js';
import type { ChangeFeed } from '../cache/change-feed.js';
import { ensureUser, newUserId, type User } from './users.js';

const KEY_PREFIX = 'tsk_';

export interface CreatedKey {
  readonly key: string;
  readonly keyId: string;
  readonly userId: string;
  readonly tier: Tier;
}

export interface KeySummary {
  readonly keyId: string;
  readonly userId: string;
  readonly tier: Tier;
  readonly name: string | null;
  readonly prefix: string;
  readonly createdAt: number;
  readonly revokedAt: number | null;
}

export function hashKey(key: string): string {
  return hash('sha256', key, 'hex');
}

/**
 * A new key. Its alphabet (base64url) has no ':', so no key ends in `:fx`: DeepL's clients
 * send such keys to DeepL's free host whatever server URL they were given, and these keys
 * are used through the DeepL-compatible API too (docs/compatibility.md).
 */
export function generateKey(): string {
  const key = KEY_PREFIX + randomBytes(32).toString('base64url');
  if (key.endsWith(DEEPL_FREE_KEY_SUFFIX)) throw new Error('a generated key must never end in :fx');
  return key;
}

/** The suffix DeepL's clients read as "a DeepL Free key": they then ignore the server URL. */
export const DEEPL_FREE_KEY_SUFFIX = ':fx';

/** Creates the user when it does not exist (with `tier`), then a key for it. */
export async function createKey(
  db: Db,
  options: { tier: Tier; userId?: string; name?: string; now: number },
): Promise<CreatedKey> {
  const user = await ensureUser(db, options.userId ?? newUserId(), options.tier, options.now);
  return insertKey(db, user, options.name ?? null, options.now);
}

async function insertKey(db: Db, user: User, name: string | null, now: number): Promise<CreatedKey> {
  const key = generateKey();
  const keyId = `key_${randomBytes(8).toString('hex')}`;
  await db
    .insertInto('api_keys')
    .values({
      id: keyId,
      user_id: user.id,
      name,
      key_hash: hashKey(key),
      key_prefix: key.slice(0, KEY_PREFIX.length + 6),
      created_at: now,
      revoked_at: null,
    })
    .execute();
  return { key, keyId, userId: user.id, tier: user.tier };
}

/**
 * The owners of the active keys among `hashes` (sha256 hex, as hashKey gives), in one
 * query; unknown and revoked keys are absent from the map. For lookups that arrive
 * together (key-cache.ts). The hashes are matched by the index, not compared in constant
 * time: what is compared is a sha256 of a 256-bit secret, whose timing gives nothing away.
 */
export async function findActiveKeys(db: Db, hashes: readonly string[]): Promise<Map<string, User>> {
  const found = new Map<string, User>();
  if (hashes.length === 0) return found;
  const rows = await db
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.user_id')
    .select(['api_keys.key_hash', 'users.id as user_id', 'users.tier'])
    .where('api_keys.key_hash', 'in', hashes)
    .where('api_keys.revoked_at', 'is', null)
    .execute();
  for (const row of rows) found.set(row.key_hash, { id: row.user_id, tier: row.tier as Tier });
  return found;
}

export async function listKeys(db: Db, userId?: string): Promise<KeySummary[]> {
  let query = db
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.user_id')
    .select([
      'api_keys.id',
      'api_keys.user_id',
      'users.tier',
      'api_keys.name',
      'api_keys.key_prefix',
      'api_keys.created_at',
      'api_keys.revoked_at',
    ])
    .orderBy('api_keys.created_at')
    .orderBy('api_keys.id');
  if (userId !== undefined) query = query.where('api_keys.user_id', '=', userId);
  const rows = await query.execute();
  return rows.map((row) => ({
    keyId: row.id,
    userId: row.user_id,
    tier: row.tier as Tier,
    name: row.name,
    prefix: row.key_prefix,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  }));
}

export async function countKeys(db: Db): Promise<number> {
  const row = await db.selectFrom('api_keys').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Revokes the key. A process that caches keys passes its change feed: other processes
 * hear the change from the database, this connection's own write only so.
 */
export async function revokeKey(db: Db, keyId: string, now: number, feed?: ChangeFeed): Promise<void> {
  const result = await db
    .updateTable('api_keys')
    .set({ revoked_at: now })
    .where('id', '=', keyId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  feed?.changed();
  if (result.numUpdatedRows === 0n) {
    const exists = await db.selectFrom('api_keys').select('id').where('id', '=', keyId).executeTakeFirst();
    throw new ServiceError('not_found', exists ? `key ${keyId} is already revoked` : `no key ${keyId}`);
  }
}

/** A new key for the same user, keeping the old key's name; the old key is revoked (`feed`: as revokeKey's). */
export async function rotateKey(db: Db, keyId: string, now: number, feed?: ChangeFeed): Promise<CreatedKey> {
  const rotated = await db.transaction().execute(async (trx) => {
    const old = await trx
      .selectFrom('api_keys')
      .innerJoin('users', 'users.id', 'api_keys.user_id')
      .select(['api_keys.name', 'api_keys.revoked_at', 'users.id as user_id', 'users.tier'])
      .where('api_keys.id', '=', keyId)
      .executeTakeFirst();
    if (!old) throw new ServiceError('not_found', `no key ${keyId}`);
    if (old.revoked_at !== null) throw new ServiceError('not_found', `key ${keyId} is already revoked`);
    await trx.updateTable('api_keys').set({ revoked_at: now }).where('id', '=', keyId).execute();
    return insertKey(trx, { id: old.user_id, tier: old.tier as Tier }, old.name, now);
  });
  feed?.changed();
  return rotated;
}

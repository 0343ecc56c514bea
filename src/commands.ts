/**
 * translate-service: serve | worker | migrate | keys create|list|revoke|rotate |
 * users set-tier (docs/contract.md §1). Configuration comes from the environment (and .env).
 * Loaded by cli.ts once its early signal handlers are in place. The process runners
 * (src/run/) are imported by the command that needs them.
 */
import { existsSync } from 'node:fs';
import { Command, InvalidArgumentError } from 'commander';
import { createKey, listKeys, revokeKey, rotateKey, type CreatedKey } from './accounts/keys.js';
import { assertUserId, setTier } from './accounts/users.js';
import { ConfigError, isTier, loadConfig, TIERS, type Config, type Tier } from './config.js';
import { openDatabase, type Database } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { isServiceError } from './errors.js';

if (existsSync('.env')) process.loadEnvFile('.env');

function config(): Config {
  return loadConfig();
}

function parseTier(value: string): Tier {
  if (!isTier(value)) throw new InvalidArgumentError(`tier must be one of ${TIERS.join(', ')}`);
  return value;
}

/** Opens the database, migrates it, runs `work`, closes it. */
async function withDatabase<T>(work: (database: Database) => Promise<T>): Promise<T> {
  const database = openDatabase(config().database);
  try {
    await migrateToLatest(database.db);
    return await work(database);
  } finally {
    await database.close();
  }
}

function printCreatedKey(created: CreatedKey, json: boolean): void {
  if (json) {
    console.log(JSON.stringify({ key: created.key, key_id: created.keyId, user_id: created.userId, tier: created.tier }));
    return;
  }
  console.log(`key:     ${created.key}`);
  console.log(`key_id:  ${created.keyId}`);
  console.log(`user_id: ${created.userId}`);
  console.log(`tier:    ${created.tier}`);
  console.log('The key is shown only now; it is stored as a hash and cannot be shown again.');
}

const program = new Command('translate-service').description('Structure-exact translation API').showHelpAfterError();

program
  .command('serve')
  .description('run the HTTP API (with in-process job workers unless --no-workers)')
  .option('--no-workers', 'do not run job workers in this process')
  .option('--no-migrate', 'do not migrate the database on start')
  .action(async (options: { workers: boolean; migrate: boolean }) => {
    const settings = config();
    const { serve } = await import('./run/serve.js');
    await serve(settings, options);
  });

program
  .command('worker')
  .description('run job workers only')
  .option('--no-migrate', 'do not migrate the database on start')
  .action(async (options: { migrate: boolean }) => {
    // Imported here, not at the top, so a worker process never loads serve's Fastify.
    const settings = config();
    const { runWorker } = await import('./run/worker.js');
    await runWorker(settings, options);
  });

program
  .command('migrate')
  .description('create or upgrade the database schema')
  .action(async () => {
    const database = openDatabase(config().database);
    try {
      const applied = await migrateToLatest(database.db);
      console.log(applied.length ? `applied: ${applied.join(', ')}` : 'the schema is up to date');
    } finally {
      await database.close();
    }
  });

const keys = program.command('keys').description('manage API keys');

keys
  .command('create')
  .description('create an API key (and its user, if new); the key is printed once')
  .requiredOption('--tier <tier>', `one of ${TIERS.join(', ')}`, parseTier)
  .option('--user <user_id>', 'the user to create the key for (1-64 of A-Z a-z 0-9 _ -); new random one when omitted')
  .option('--name <label>', 'a label to tell keys apart')
  .option('--json', 'print one JSON object')
  .action(async (options: { tier: Tier; user?: string; name?: string; json?: boolean }) => {
    if (options.user !== undefined) assertUserId(options.user);
    const created = await withDatabase(({ db }) =>
      createKey(db, {
        tier: options.tier,
        now: Date.now(),
        ...(options.user !== undefined ? { userId: options.user } : {}),
        ...(options.name !== undefined ? { name: options.name } : {}),
      }),
    );
    printCreatedKey(created, options.json === true);
  });

keys
  .command('list')
  .description('list API keys (never the keys themselves)')
  .option('--user <user_id>', 'only this user\'s keys')
  .option('--json', 'print JSON')
  .action(async (options: { user?: string; json?: boolean }) => {
    const rows = await withDatabase(({ db }) => listKeys(db, options.user));
    const view = rows.map((k) => ({
      key_id: k.keyId,
      user_id: k.userId,
      tier: k.tier,
      name: k.name,
      prefix: k.prefix,
      created_at: new Date(k.createdAt).toISOString(),
      revoked_at: k.revokedAt === null ? null : new Date(k.revokedAt).toISOString(),
    }));
    if (options.json) {
      console.log(JSON.stringify(view));
      return;
    }
    if (view.length === 0) console.log('no keys');
    for (const k of view) {
      console.log(`${k.key_id}  ${k.prefix}…  user=${k.user_id}  tier=${k.tier}  ${k.revoked_at ? `revoked ${k.revoked_at}` : 'active'}${k.name ? `  "${k.name}"` : ''}`);
    }
  });

keys
  .command('revoke <key_id>')
  .description('revoke a key; it answers 401 from now on')
  .action(async (keyId: string) => {
    await withDatabase(({ db }) => revokeKey(db, keyId, Date.now()));
    console.log(`revoked ${keyId}`);
  });

keys
  .command('rotate <key_id>')
  .description('create a new key for the same user and revoke the old one')
  .option('--json', 'print one JSON object')
  .action(async (keyId: string, options: { json?: boolean }) => {
    const created = await withDatabase(({ db }) => rotateKey(db, keyId, Date.now()));
    printCreatedKey(created, options.json === true);
  });

const users = program.command('users').description('manage users');

users
  .command('set-tier <user_id> <tier>')
  .description(`change a user's tier (${TIERS.join(', ')})`)
  .action(async (userId: string, tier: string) => {
    const parsed = parseTier(tier);
    await withDatabase(({ db }) => setTier(db, userId, parsed));
    console.log(`${userId} is now on the ${parsed} tier`);
  });

program.parseAsync(process.argv).catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(`configuration error: ${error.message}`);
    process.exit(2);
  }
  if (isServiceError(error) || error instanceof InvalidArgumentError) {
    console.error(`error: ${error.message}`);
    process.exit(1);
  }
  console.error(error);
  process.exit(1);
});

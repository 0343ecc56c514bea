/**
 * translate-service: serve | worker | migrate | keys create|list|revoke|rotate |
 * users set-tier (docs/contract.md §1), and the API's clients translate | sync
 * (src/localize/). Configuration comes from the environment (and .env). Loaded by cli.ts
 * once its early signal handlers are in place. The process runners (src/run/), the
 * database modules and the clients are imported by the command that needs them, so that
 * a client command loads neither a database driver nor Fastify.
 */
import { existsSync } from 'node:fs';
import { Command, InvalidArgumentError } from 'commander';
import { createKey, listKeys, revokeKey, rotateKey, type CreatedKey } from './accounts/keys.js';
import { assertUserId, setTier } from './accounts/users.js';
import { ConfigError, isTier, loadConfig, TIERS, type Config, type Tier } from './config.js';
import type { Database } from './db/database.js';
import type { SyncFlags, TranslateFlags } from './localize/cli.js';
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
  const { openDatabase } = await import('./db/database.js');
  const { migrateToLatest } = await import('./db/migrate.js');
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
    const { openDatabase } = await import('./db/database.js');
    const { migrateToLatest } = await import('./db/migrate.js');
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

function positiveInteger(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError('must be a whole number of at least 1');
  return Number(value);
}

function characterCount(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('must be a whole number of characters');
  return Number(value);
}

/** Options the two API clients share. */
function clientOptions(command: Command): Command {
  return command
    .option('--api-url <url>', 'the API\'s base URL (default: TRANSLATE_API_URL, else http://127.0.0.1:8080/v1)')
    .option('--api-key <key>', 'the API key (default: TRANSLATE_API_KEY)')
    .option('--concurrency <n>', 'requests in flight at once', positiveInteger, 4)
    .option('--job-above <characters>', 'send a file larger than this as a job, shown with its queue position', characterCount, 100_000)
    .option('--json', 'print one JSON object a line, for machines');
}

clientOptions(
  program
    .command('translate <files...>')
    .description('translate files into each target language with a running service; one file per target, in the file\'s format')
    .requiredOption('--to <codes>', 'target language codes, comma-separated (fr,de)')
    .option('--from <code>', 'the source language (detected when omitted)')
    .option('--format <format>', 'plain, markdown, json or html (default: from the extension, else detected)')
    .option('--model <model>', 'standard or advanced')
    .option('--out <dir>', 'write DIR/<code>/<file name> (default: <name>.<code><ext> beside each file)')
    .option('--in-place', 'overwrite each file (one target only)'),
).action(async (files: string[], options: TranslateFlags) => {
  const { runTranslate } = await import('./localize/cli.js');
  process.exitCode = await runTranslate(files, options);
});

clientOptions(
  program
    .command('sync')
    .description('bring the target files of translate.config.json up to date, sending only new and changed strings (exit: 0 up to date, 1 error, 2 updated, 3 stale)')
    .option('--config <path>', 'the project\'s config file; its folder holds translate.lock', 'translate.config.json')
    .option('--frozen', 'translate nothing; exit 3 when anything is stale (for CI)')
    .option('--dry-run', 'print what would be sent and the API\'s estimate per target; send nothing'),
).action(async (options: SyncFlags) => {
  const { runSync } = await import('./localize/cli.js');
  process.exitCode = await runSync(options);
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

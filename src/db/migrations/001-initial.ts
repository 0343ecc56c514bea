import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tier', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('name', 'text')
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('key_prefix', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('api_keys_user').on('api_keys').column('user_id').execute();

  await db.schema
    .createTable('usage_monthly')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('period', 'text', (c) => c.notNull())
    .addColumn('input_tokens', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('output_tokens', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('tokens_used', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('usage_monthly_pk', ['user_id', 'period'])
    .execute();

  await db.schema
    .createTable('token_reservations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('tokens', 'bigint', (c) => c.notNull())
    .addColumn('job_id', 'text')
    .addColumn('expires_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('token_reservations_user').on('token_reservations').column('user_id').execute();
  await db.schema.createIndex('token_reservations_job').on('token_reservations').column('job_id').execute();

  await db.schema
    .createTable('jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('request', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('completed_at', 'bigint')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('run_at', 'bigint', (c) => c.notNull())
    .addColumn('locked_by', 'text')
    .addColumn('lease_expires_at', 'bigint')
    .addColumn('result', 'text')
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('input_tokens', 'bigint')
    .addColumn('output_tokens', 'bigint')
    .addColumn('error', 'text')
    .execute();
  // Partial indexes keep the queue's lookups proportional to the live queue, not to history.
  await db.schema
    .createIndex('jobs_pending_order')
    .on('jobs')
    .columns(['created_at', 'id'])
    .where(sql.ref('status'), '=', 'pending')
    .execute();
  await db.schema
    .createIndex('jobs_active_order')
    .on('jobs')
    .columns(['created_at', 'id'])
    .where(sql.ref('status'), 'in', ['pending', 'processing'])
    .execute();
  await db.schema
    .createIndex('jobs_processing_lease')
    .on('jobs')
    .column('lease_expires_at')
    .where(sql.ref('status'), '=', 'processing')
    .execute();
  await db.schema
    .createIndex('jobs_finished_updated')
    .on('jobs')
    .column('updated_at')
    .where(sql.ref('status'), 'in', ['completed', 'failed'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['jobs', 'token_reservations', 'usage_monthly', 'api_keys', 'users']) {
    await db.schema.dropTable(table).execute();
  }
}

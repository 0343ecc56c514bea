/**
 * SQLite: one UPDATE … WHERE id IN (SELECT … LIMIT n) RETURNING claims atomically, as
 * SQLite runs one writer at a time. Wake-ups are a signal of the dialect, which the
 * composition root makes once per process (services.ts), so the routes that insert jobs
 * wake the process's worker; a worker elsewhere (another process, or another dialect in
 * this one) sharing the file finds new jobs on its fallback poll.
 */
import { EventEmitter } from 'node:events';
import type { Db } from '../../db/database.js';
import { oldestFirst, type JobDialect, type JobRow } from '../dialect.js';
import { isPending } from '../status-filters.js';

export function createSqliteJobDialect(): JobDialect {
  const signal = new EventEmitter();
  signal.setMaxListeners(0);
  return {
    async claimBatch(db: Db, workerId: string, leaseMs: number, now: number, limit: number): Promise<JobRow[]> {
      const rows = await db
        .updateTable('jobs')
        .set((eb) => ({
          status: 'processing',
          attempts: eb('attempts', '+', 1),
          locked_by: workerId,
          lease_expires_at: now + leaseMs,
          updated_at: now,
        }))
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('jobs')
            .select('id')
            .where(isPending)
            .where('run_at', '<=', now)
            .orderBy('created_at')
            .orderBy('id')
            .limit(limit),
        )
        .where('status', '=', 'pending')
        .returningAll()
        .execute();
      return rows.sort(oldestFirst);
    },

    async subscribe(onNudge: () => void): Promise<() => Promise<void>> {
      signal.on('nudge', onNudge);
      return async () => {
        signal.off('nudge', onNudge);
      };
    },

    async notify(): Promise<void> {
      signal.emit('nudge');
    },
  };
}

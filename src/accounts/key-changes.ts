/**
 * Whether the keys and users this process has cached may have changed — here or in any
 * other process — as the database itself tells it (docs/decisions/0039). The recent
 * memory entries follow the same feed (decision 0042): a statement that deletes
 * translation memory counts as a change too, so one LISTEN connection serves both.
 *
 * - PostgreSQL: every statement that changes `api_keys` or `users`, or deletes
 *   `translation_memory` rows, notifies KEY_CHANGES_CHANNEL at commit (triggers of
 *   migrations 005 and 006); a LISTEN connection hears it within milliseconds.
 * - SQLite: `PRAGMA data_version` changes whenever another connection — another process:
 *   `translate-service keys revoke`, a worker — commits; it is read every POLL_MS (key-change-watch.ts).
 * - Changes made through this process's own connection (revokeKey, rotateKey, setTier)
 *   call `changed()` directly, since SQLite does not count them.
 *
 * The watchers are key-change-watch.ts (kept apart: the CLI's commands count changes
 * without loading a database driver's notification code).
 *
 * `generation` grows with every change heard. `watching` is false while the feed cannot
 * be trusted (the LISTEN connection is down, a poll failed, not started yet): the key
 * cache then keeps keys only for its short TTL, as it did before this existed. A feed
 * that comes back counts as a change, since it may have missed one.
 */
import { perDatabase } from '../db/per-database.js';

export class KeyChanges {
  #generation = 0;
  #watching = false;

  /** Grows with every change heard; a cached key read at an older generation is stale. */
  get generation(): number {
    return this.#generation;
  }

  /** Whether changes in other processes are heard now. */
  get watching(): boolean {
    return this.#watching;
  }

  /** Something about keys or users changed (or may have, unheard). */
  changed(): void {
    this.#generation += 1;
  }

  /** For watchers: the feed became trustworthy (counted as a change) or stopped being so. */
  setWatching(watching: boolean): void {
    if (watching && !this.#watching) this.changed();
    this.#watching = watching;
  }
}

/** The key changes of `db` (one per database handle, made on first use). */
export const keyChangesOf = perDatabase(() => new KeyChanges());

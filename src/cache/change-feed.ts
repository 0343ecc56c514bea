/**
 * Whether rows this process keeps may have changed — here or in any other process — as
 * the database tells it (docs/caches.md). One feed carries what every cache here needs:
 * changes to `api_keys` and `users` (the key cache) and deleted `translation_memory`
 * rows (recent memory entries). change-watch.ts feeds it from the database; this
 * process's own writes through its own connection call `changed()`, since SQLite does not
 * count them.
 *
 * `generation` grows with every change heard: a value read at an older generation is
 * stale. `watching` is false while the feed cannot be trusted (the LISTEN connection is
 * down, a poll failed, not started yet): caches then keep values for their short life
 * only. A feed that comes back counts as a change, since it may have missed one.
 */
export class ChangeFeed {
  #generation = 0;
  #watching = false;

  /** Grows with every change heard. */
  get generation(): number {
    return this.#generation;
  }

  /** Whether changes in other processes are heard now. */
  get watching(): boolean {
    return this.#watching;
  }

  /** Something the caches keep changed (or may have, unheard). */
  changed(): void {
    this.#generation += 1;
  }

  /** For the watch: the feed became trustworthy (counted as a change) or stopped being so. */
  setWatching(watching: boolean): void {
    if (watching && !this.#watching) this.changed();
    this.#watching = watching;
  }
}

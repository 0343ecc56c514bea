/**
 * The loop of a process that works through leased rows (jobs/worker.ts claims jobs,
 * webhooks/sender.ts claims deliveries): told to look, it claims as many rows as it has free
 * slots, in one statement, and again while a claim filled every slot; a nudge while it is
 * claiming makes it look once more when it is done, so no nudge is lost and no two claims
 * run at once.
 */
export interface ClaimLoopParts<T> {
  /** Slots free now (0 or less: nothing is claimed). */
  free(): number;
  /** Claims up to `limit` rows. */
  claim(limit: number): Promise<readonly T[]>;
  /** Starts the work of a claimed row; it frees its slot when it ends. */
  begin(row: T): void;
  /** True once the owner stops: nothing more is claimed. */
  stopping(): boolean;
  /** A claim failed; the next nudge or poll tries again. */
  failed(error: unknown): void;
}

export class ClaimLoop<T> {
  #claiming = false;
  #again = false;

  constructor(private readonly parts: ClaimLoopParts<T>) {}

  /** Look for rows now (or, while a claim runs, once more after it). */
  nudge(): void {
    if (this.parts.stopping()) return;
    if (this.#claiming) {
      this.#again = true;
      return;
    }
    void this.#claim();
  }

  async #claim(): Promise<void> {
    const { parts } = this;
    this.#claiming = true;
    try {
      do {
        this.#again = false;
        for (let free = parts.free(); !parts.stopping() && free > 0; free = parts.free()) {
          // Every free slot in one claim: one statement (and commit) for several rows.
          const rows = await parts.claim(free);
          for (const row of rows) parts.begin(row);
          if (rows.length < free) break;
        }
      } while (this.#again && !parts.stopping());
    } catch (error) {
      parts.failed(error);
    } finally {
      this.#claiming = false;
    }
  }
}

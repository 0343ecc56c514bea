/**
 * How many rows (or keys) one statement of a long loop takes, sized by how long the last
 * ones took. On SQLite a statement runs on the main thread, so a loop of statements takes
 * turns between them (docs/event-loop.md, rule 3), and one statement is a turn nobody can
 * cut: 500 rows into a memory table of millions took 50 ms on one machine and 185–275 ms on
 * a slower one (docs/benchmarks.md, "Statements sized by their time"). A fixed count is
 * right for one machine and one table size only; this keeps a statement near `targetMs`
 * wherever it runs, between `min` and `max` rows. Kept by the part that owns the table (one
 * per process, made by the composition root), so what one request learnt serves the next.
 */
export class StatementSize {
  #size: number;

  constructor(
    /** The clock a statement is timed with (ms). */
    private readonly clock: () => number,
    private readonly min: number,
    private readonly max: number,
    private readonly targetMs: number,
  ) {
    this.#size = max;
  }

  /** Rows for the next statement. */
  get size(): number {
    return this.#size;
  }

  /** When a statement starts: hand the value back to `took`. */
  start(): number {
    return this.clock();
  }

  /** A statement of `count` rows, started at `started`, has finished. */
  took(count: number, started: number): void {
    const ms = this.clock() - started;
    if (count < this.min) return; // a last, short statement times its fixed costs more than its rows
    const fits = ms <= 0 ? this.max : Math.floor((this.targetMs * count) / ms);
    // Halfway to the size that fits: one statement slowed by something else (a collection
    // inside it) does not send the next ones to the minimum at once.
    this.#size = Math.min(this.max, Math.max(this.min, Math.round((this.#size + fits) / 2)));
  }
}

/**
 * Process-wide companions of a database handle — a key cache, a group commit, recent
 * memory entries — one per handle, made on first use and dropped with the handle (a
 * WeakMap), so tests that open many databases never share one.
 */
import type { Db } from './database.js';

export function perDatabase<T>(make: (db: Db) => T): (db: Db) => T {
  const made = new WeakMap<Db, T>();
  return (db) => {
    let value = made.get(db);
    if (value === undefined) made.set(db, (value = make(db)));
    return value;
  };
}

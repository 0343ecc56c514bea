/** What the formats benches share: ~2 MiB generated documents and best-of timing. */

export const SIZE = 2 * 1024 * 1024;

/** `prefix`, then `unit(0)`, `unit(1)`, … until the document reaches SIZE, then `suffix`. */
export function build(unit: (i: number) => string, prefix = '', suffix = ''): string {
  const parts: string[] = [prefix];
  let size = prefix.length + suffix.length;
  for (let i = 0; size < SIZE; i++) {
    const part = unit(i);
    parts.push(part);
    size += part.length;
  }
  parts.push(suffix);
  return parts.join('');
}

/**
 * Best of `runs` timed calls after `warmups` untimed ones, for the adapter and every parser
 * alike: on a shared 2-core VM single runs vary by ±15%, and V8 is still tiering up a
 * function during its first calls.
 */
export function time(fn: () => unknown, runs = 10, warmups = 3): number {
  for (let i = 0; i < warmups; i++) fn();
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    fn();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

/** Waiting in tests for what another connection or process does. */

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Milliseconds until `check` holds, asking every `everyMs`; fails after 3 s. */
export async function msUntil(check: () => Promise<boolean>, everyMs = 10): Promise<number> {
  const started = performance.now();
  while (!(await check())) {
    if (performance.now() - started > 3_000) throw new Error('never happened');
    await sleep(everyMs);
  }
  return performance.now() - started;
}

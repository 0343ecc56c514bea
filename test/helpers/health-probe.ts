/**
 * The event-loop check shared by the tests that send heavy work: GET /health is polled
 * every 20 ms while `work` runs, and each answer's latency recorded. A stalled loop shows
 * as slow health answers, whatever the heavy request itself takes.
 */
import assert from 'node:assert/strict';

export interface Probed<T> {
  readonly result: T;
  /** How long `work` took, in ms. */
  readonly elapsed: number;
  /** Each health answer's latency, in ms, in order. */
  readonly latencies: readonly number[];
}

export async function whileHealthPolled<T>(base: string, work: () => Promise<T>): Promise<Probed<T>> {
  const latencies: number[] = [];
  let done = false;
  const poll = (async () => {
    while (!done) {
      const started = performance.now();
      const response = await fetch(`${base}/health`);
      await response.arrayBuffer();
      assert.equal(response.status, 200);
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  const started = performance.now();
  try {
    const result = await work();
    return { result, elapsed: performance.now() - started, latencies };
  } finally {
    done = true;
    await poll;
  }
}

/** The latency below which `share` of the answers fall (0.9: the 90th percentile). */
export function percentile(latencies: readonly number[], share: number): number {
  return [...latencies].sort((a, b) => a - b)[Math.floor(latencies.length * share)]!;
}

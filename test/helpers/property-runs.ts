/**
 * fast-check settings for every property test. Locally each run draws a new seed and so
 * explores new inputs; under CI=true the seed is fixed, so a submission's CI result does
 * not depend on luck. FC_SEED=<n> replays a failure a run reported.
 */
const CI_SEED = 20261121;

export function propertyRuns(numRuns: number): { numRuns: number; seed?: number } {
  if (process.env.FC_SEED) return { numRuns, seed: Number(process.env.FC_SEED) };
  if (process.env.CI === 'true' || process.env.CI === '1') return { numRuns, seed: CI_SEED };
  return { numRuns };
}

/**
 * Whether Apertium and its English–Spanish pair are installed, for the tests that run
 * the real engine. `.ci/run` installs them; under CI=true their absence fails the file
 * instead of skipping it, and elsewhere the skip is printed so it is seen.
 */
import { execFileSync } from 'node:child_process';

const IN_CI = process.env.CI === 'true' || process.env.CI === '1';

function missingReason(): string | undefined {
  let listing: string;
  try {
    listing = execFileSync('apertium', ['-l'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return 'apertium is not installed (apt-get install apertium apertium-eng-spa)';
  }
  const modes = listing.split('\n').map((line) => line.trim());
  if (!modes.includes('eng-spa') || !modes.includes('spa-eng')) return 'the apertium-eng-spa pair is not installed (apt-get install apertium-eng-spa)';
  return undefined;
}

/** For `describe(name, { skip: apertiumSkip() }, …)`: undefined when installed; a printed reason, or a throw under CI. */
export function apertiumSkip(): string | undefined {
  const reason = missingReason();
  if (reason === undefined) return undefined;
  if (IN_CI) throw new Error(`${reason} — and CI=true, so this is a failure, not a skip`);
  console.warn(`\n*** SKIPPED: ${reason} ***\n`);
  return `SKIPPED: ${reason}`;
}

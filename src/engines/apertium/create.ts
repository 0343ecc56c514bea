/**
 * The `apertium` engine as configuration starts it: the installed pairs read once from
 * `apertium -l` at startup, so a missing Apertium or an empty pair list stops the
 * service with a sentence saying what to install, instead of failing requests later.
 */
import { execFileSync } from 'node:child_process';
import type { Config } from '../../config.js';
import type { Tokenizer } from '../../tokens.js';
import type { CallBudget } from '../engine.js';
import { ApertiumEngine } from './apertium-engine.js';
import { ApertiumPairs } from './pairs.js';

const INSTALL_HINT = 'install Apertium and a pair, e.g. `apt-get install apertium apertium-eng-spa`';

/** The directory Apertium's own script reads its modes from. */
export function apertiumDataDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.APERTIUM_DATADIR || '/usr/share/apertium';
}

/** The installed pairs as `apertium -l` lists them; throws a plain sentence when Apertium is not installed. */
export function installedPairs(): ApertiumPairs {
  let listing: string;
  try {
    listing = execFileSync('apertium', ['-l'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 10_000 });
  } catch (error) {
    throw new Error(`MODEL_STANDARD/MODEL_ADVANCED=apertium, but \`apertium -l\` failed: ${INSTALL_HINT}`, { cause: error });
  }
  const pairs = new ApertiumPairs(listing);
  if (pairs.empty) throw new Error(`apertium is installed, but no pair between languages this service offers: ${INSTALL_HINT}`);
  return pairs;
}

export function createApertiumEngine(config: Config, budget: CallBudget, tokenizer: Tokenizer): ApertiumEngine {
  return new ApertiumEngine({
    pairs: installedPairs(),
    dataDir: apertiumDataDir(),
    budget,
    timeoutMs: config.engineTimeoutMs,
    idleMs: config.apertiumIdleMs,
    concurrency: config.engineConcurrency,
    tokenizer,
  });
}

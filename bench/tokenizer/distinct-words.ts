/**
 * Counting many distinct words (docs/benchmarks.md, "The tokenizer's merge cache"): 100,000
 * JSON-key-like lines through the service's Tokenizer, twice, as a document of 100,000 keys
 * is counted on the main thread (the pseudo engine's usage) and in a document worker.
 *
 *   npx tsx bench/tokenizer/distinct-words.ts [--lines=100000]
 */
import { Tokenizer } from '../../src/tokens.js';

const lines = Number(process.argv.find((a) => a.startsWith('--lines='))?.slice(8) ?? 100_000);
const tokenizer = new Tokenizer();
const texts = Array.from({ length: lines }, (_, i) => `"setting_${i.toString(36)}_label": "Option number ${i} for the panel ${i * 7}"`);
for (const pass of [1, 2]) {
  const started = performance.now();
  let tokens = 0;
  for (const text of texts) tokens += tokenizer.countTokens(text);
  console.log(`pass ${pass}: ${lines} lines, ${tokens} tokens, ${(performance.now() - started).toFixed(0)} ms`);
}

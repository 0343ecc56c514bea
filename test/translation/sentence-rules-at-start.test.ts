/**
 * The composition root loads ICU's sentence rules at start-up (src/services.ts, decision
 * 0124): a process's first sentence segmenter builds the rules' tables, ~9 ms of CPU that
 * the first request looking for sentences (decision 0122) would otherwise wait for before
 * its first model call. Each measure runs in a process of its own, since a process loads
 * the rules once; it counts the pages first touched while a segmenter is made.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

const CHILD = fileURLToPath(new URL('../helpers/first-segmenter-cost.ts', import.meta.url));

function pagesTouched(mode: 'bare' | 'services'): number {
  const run = spawnSync(process.execPath, ['--import', 'tsx', CHILD, mode], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  return (JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { pageFaults: number }).pageFaults;
}

test('once the services are made, a sentence segmenter builds no rule tables', () => {
  const bare = pagesTouched('bare');
  // Without this, the measure could not tell loaded rules from rules that cost nothing.
  assert.ok(bare >= 100, `a bare process's first segmenter touched ${bare} new pages; loading the rules should touch hundreds`);
  const afterServices = pagesTouched('services');
  assert.ok(afterServices < 25, `after createServices the first segmenter touched ${afterServices} new pages (a bare process: ${bare})`);
});

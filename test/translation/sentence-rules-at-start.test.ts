/**
 * The composition root loads ICU's sentence rules at start-up (src/services.ts, decision
 * 0124): a process's first sentence segmenter builds the rules' tables, milliseconds of
 * CPU that the first request looking for sentences (decision 0122) would otherwise spend
 * before its first model call. Each measure runs in a process of its own, since a process
 * loads the rules once; it counts CPU time, which a loaded machine does not stretch.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

const CHILD = fileURLToPath(new URL('../helpers/first-segmenter-cost.ts', import.meta.url));

function segmenterCpuMs(mode: 'bare' | 'services'): number {
  const run = spawnSync(process.execPath, ['--import', 'tsx', CHILD, mode], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  return (JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { cpuMs: number }).cpuMs;
}

test('once the services are made, a sentence segmenter costs a fraction of building the rules', () => {
  const bare = segmenterCpuMs('bare');
  // Without this, the measure could not tell loaded rules from rules that cost nothing.
  assert.ok(bare >= 1.5, `a bare process's first segmenter took ${bare} ms of CPU; building the rules should take milliseconds`);
  const afterServices = segmenterCpuMs('services');
  assert.ok(afterServices < bare / 4, `after createServices the first segmenter took ${afterServices} ms of CPU (a bare process: ${bare} ms)`);
});

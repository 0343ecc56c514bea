import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { detectFormat } from '../../src/formats/index.js';
import { threadCpuMs } from '../helpers/thread-cpu.js';

// Detection runs on every request that omits `format`, on the first 64 KB of content a
// caller controls. Each input here once took seconds through a backtracking pattern.
// Timed by this thread's CPU: on a loaded 2-core machine the wall clock also counts time
// the test process waited for a core.
const HEAD = 64 * 1024;
const HOSTILE: Record<string, string> = {
  'one long word': 'a'.repeat(HEAD),
  'open brackets': '['.repeat(HEAD),
  'open footnote refs': '[^'.repeat(HEAD / 2),
  'unclosed strong': 'x **y '.repeat(HEAD / 6),
  'unclosed links': '[a]('.repeat(HEAD / 4),
  'unclosed autolinks': '<http:'.repeat(HEAD / 6),
  'unclosed comments': '<!--'.repeat(HEAD / 4),
  'a row of closed comments': '<!-- x -->'.repeat(HEAD / 10),
  'a row of comments before a page': `${'<!-- note -->\n'.repeat(HEAD / 14)}<p>Text</p>`,
  'image openers': '!['.repeat(HEAD / 2),
  '.strings pairs left open': '"a" = "'.repeat(HEAD / 7) + ';',
  '.strings comment openers': `${'/*'.repeat(HEAD / 2)}"a" = "b";`,
};

describe('format detection on hostile input', () => {
  for (const [name, content] of Object.entries(HOSTILE)) {
    it(`stays fast on ${name}`, () => {
      const started = threadCpuMs();
      detectFormat(content);
      const elapsed = threadCpuMs() - started;
      assert.ok(elapsed < 400, `${name}: ${elapsed.toFixed(0)} ms of CPU`);
    });
  }
});

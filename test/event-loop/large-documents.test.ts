/**
 * Issue 37's bound in npm test: while one large many-segment document of each format is
 * translated by the built service (`node dist/cli.js serve`, SQLite, `pseudo`), a
 * GET /v1/health polled from this process every 20 ms answers within 100 ms. The
 * documents are tens of thousands of short segments, the shape whose per-segment work on
 * the main thread used to run in one go (docs/event-loop.md); sized so that the longest
 * stretch of that work, in CPU, is well under the bound (docs/benchmarks.md, "Event loop:
 * the last shapes"). A stall shows on every try; a machine that paused the whole process
 * once does not, so a format gets a second try and the better one must hold.
 * Needs `npm run build` (npm test does it first).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Format } from '../../src/formats/format.js';
import { whileHealthPolled } from '../helpers/health-probe.js';
import { startServed, type Served } from '../helpers/served.js';

const ENTRIES = 10_000;
const BOUND_MS = 100;
const TRIES = 2;

const lines = (line: (i: number) => string): string => Array.from({ length: ENTRIES }, (_, i) => line(i)).join('');
const DOCUMENTS: Partial<Record<Format, () => string>> = {
  plain: () => lines((i) => `Line ${i} of the notes.\n\n`),
  markdown: () => lines((i) => `- Item ${i} with *emphasis*\n`),
  json: () => `{${Array.from({ length: ENTRIES }, (_, i) => `"k${i}":"Value ${i} here"`).join(',')}}`,
  html: () => `<ul>${lines((i) => `<li>Item ${i}</li>`)}</ul>`,
  po: () => `msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n${lines((i) => `msgid "Message ${i}"\nmsgstr ""\n\n`)}`,
  properties: () => lines((i) => `key${i}=Value ${i} here\n`),
  yaml: () => `en:\n${lines((i) => `  k${i}: Value ${i} here\n`)}`,
  xliff: () =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"><file source-language="en" datatype="plaintext" original="x"><body>\n${lines(
      (i) => `<trans-unit id="u${i}"><source>Value ${i} here</source></trans-unit>\n`,
    )}</body></file></xliff>\n`,
};

describe('a health check answers within 100 ms while a large document is translated', () => {
  let served: Served;
  let auth: string;
  before(async () => {
    served = await startServed('sqlite', { RATE_LIMIT_STORE: 'none', DOCUMENT_TIME_LIMIT_MS: '60000' });
    auth = `Bearer ${(JSON.parse(served.cli('keys', 'create', '--tier', 'enterprise', '--json')) as { key: string }).key}`;
  });
  after(() => served.close());

  for (const [format, document] of Object.entries(DOCUMENTS) as [Format, () => string][]) {
    it(`${format}: ${ENTRIES.toLocaleString('en')} entries into 2 targets`, { timeout: 120_000 }, async () => {
      const content = document();
      const tries: number[] = [];
      for (let attempt = 0; attempt < TRIES; attempt++) {
        // A new source each try: a repeat would be answered from translation memory.
        const body = JSON.stringify({ content: content.replace(/Value|Item|Line|Message/g, (word) => `${word}${attempt}`), format, targets: ['fr', 'de'] });
        const { result, latencies } = await whileHealthPolled(served.base, async () => {
          const response = await fetch(`${served.base}/translate`, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, body });
          return { status: response.status, text: await response.text() };
        });
        assert.equal(result.status, 200, result.text.slice(0, 300));
        assert.ok(latencies.length > 0);
        tries.push(Math.max(...latencies));
        if (tries.at(-1)! < BOUND_MS) break;
      }
      assert.ok(Math.min(...tries) < BOUND_MS, `the longest health check waited ${tries.map((ms) => `${ms.toFixed(0)} ms`).join(', then ')}`);
    });
  }
});

/**
 * Issue 37's bound, in npm test: while one large many-segment document of each format is
 * translated through the real app, no turn of the event loop lasts over 100 ms. Measured
 * with perf_hooks' event-loop delay (the longest a 1 ms timer waited), the figure every
 * other request on this process would wait. The documents are tens of thousands of short
 * segments, the shape whose per-segment main-thread work used to run in one go
 * (docs/event-loop.md). A loaded CI machine can pause the whole process; a real stall
 * shows on every try, so each format gets up to three tries and the best must hold.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Format } from '../../src/formats/format.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

const ENTRIES = 30_000;
const BOUND_MS = 100;
const TRIES = 3;

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

describe('no turn of the event loop over 100 ms while a large document is translated', () => {
  let test: TestApp;
  let auth: string;
  before(async () => {
    test = await startTestApp({ env: { RATE_LIMIT_STORE: 'none', DOCUMENT_TIME_LIMIT_MS: '60000' } });
    auth = (await test.key('enterprise')).auth;
  });
  after(() => test.close());

  for (const [format, document] of Object.entries(DOCUMENTS) as [Format, () => string][]) {
    it(`${format}: ${ENTRIES.toLocaleString('en')} entries into 2 targets`, { timeout: 180_000 }, async () => {
      const content = document();
      const tries: number[] = [];
      for (let attempt = 0; attempt < TRIES; attempt++) {
        const delay = monitorEventLoopDelay({ resolution: 1 });
        delay.enable();
        const response = await test.app.inject({
          method: 'POST',
          url: '/v1/translate',
          headers: { authorization: auth, 'content-type': 'application/json' },
          // A new source each try: a repeat would be answered from translation memory.
          payload: { content: content.replace(/Value|Item|Line|Message/g, (word) => `${word}${attempt}`), format, targets: ['fr', 'de'] },
        });
        delay.disable();
        assert.equal(response.statusCode, 200, response.body);
        tries.push(delay.max / 1e6);
        if (tries.at(-1)! < BOUND_MS) break;
      }
      const best = Math.min(...tries);
      assert.ok(best < BOUND_MS, `the longest turn of the loop was ${tries.map((ms) => `${ms.toFixed(0)} ms`).join(', then ')}`);
    });
  }
});

/**
 * What the document pool's thread hop costs, against what reading a document inline can
 * cost when the document is hostile (docs/decisions/0011-every-document-in-a-bounded-worker.md).
 *   1. An ordinary document (prose with a placeholder, emphasis and a link, format
 *      detected) of 64 B to 16 KiB: prepare + one render, inline vs through the pool;
 *      median and 90th percentile of 200 runs after 50 warm-up runs.
 *   2. Every hostile shape of test/hostile/shapes.ts cut to 256 B – 16 KiB, read inline
 *      (detect when the shape omits the format, extract, render): the fastest of 5 runs,
 *      i.e. the work itself without the noise of a shared machine.
 * Run: npx tsx bench/hostile/pool-hop.ts
 */
import { DocumentPool } from '../../src/translation/document-pool.js';
import { prepareDocument } from '../../src/translation/translate-document.js';
import { HOSTILE_SHAPES } from '../../test/hostile/shapes.js';
import type { Format } from '../../src/formats/format.js';

const pool = new DocumentPool({ size: 1 });
const PARAGRAPH = 'Hello, {name}! You have **3** new [messages](https://example.com/m).\n\n';
const SIZES = [64, 256, 1_024, 4_096, 16_384];

async function once(content: string, pooled: boolean, format?: Format): Promise<number> {
  const started = performance.now();
  const prepared = await prepareDocument(content, format, pooled ? { pool, largeDocumentChars: 0 } : { largeDocumentChars: Infinity });
  await prepared.renderAll([{ key: 'fr', target: { code: 'fr', rtl: false }, translations: prepared.segments.map((s) => s.text) }]);
  prepared.release();
  return performance.now() - started;
}
const pick = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
const ms = (n: number) => n.toFixed(n < 1 ? 2 : 1);

const hop = [];
for (const size of SIZES) {
  const content = PARAGRAPH.repeat(Math.ceil(size / PARAGRAPH.length)).slice(0, size);
  for (let i = 0; i < 50; i++) {
    await once(content, true);
    await once(content, false);
  }
  const inline: number[] = [];
  const pooled: number[] = [];
  for (let i = 0; i < 200; i++) {
    pooled.push(await once(content, true));
    inline.push(await once(content, false));
  }
  inline.sort((a, b) => a - b);
  pooled.sort((a, b) => a - b);
  hop.push({
    chars: size,
    'inline p50 ms': ms(pick(inline, 0.5)),
    'inline p90 ms': ms(pick(inline, 0.9)),
    'pooled p50 ms': ms(pick(pooled, 0.5)),
    'pooled p90 ms': ms(pick(pooled, 0.9)),
  });
}
console.log('An ordinary document, format detected: prepare + one render');
console.table(hop);

const worst = [];
for (const shape of HOSTILE_SHAPES) {
  const full = shape.content(SIZES.at(-1)!);
  const row: Record<string, string> = { shape: shape.name };
  for (const size of SIZES.slice(1)) {
    let fastest = Infinity;
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      await once(full.slice(0, size), false, shape.format).catch(() => {}); // a refusal's time counts too
      fastest = Math.min(fastest, performance.now() - started);
    }
    row[`${size} ms`] = ms(fastest);
  }
  worst.push(row);
}
console.log('Hostile shapes read inline, cut to each size: the fastest of 5 runs');
console.table(worst);
await pool.close();

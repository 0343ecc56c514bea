/**
 * Prints the confusion matrix of detectFormat over the labelled detection corpus.
 * Run: npx tsx bench/formats/confusion.ts
 */
import { detectFormat } from '../../src/formats/index.js';
import { FORMATS } from '../../src/formats/format.js';
import type { Format } from '../../src/formats/format.js';
import { SAMPLES } from '../../test/fixtures/formats/detection/samples.js';

export function confusion(): { matrix: Map<Format, Map<Format, number>>; correct: number; total: number; misses: string[] } {
  const matrix = new Map<Format, Map<Format, number>>(FORMATS.map((f) => [f, new Map(FORMATS.map((g) => [g, 0]))]));
  let correct = 0;
  const misses: string[] = [];
  for (const sample of SAMPLES) {
    const { format } = detectFormat(sample.content);
    const row = matrix.get(sample.format)!;
    row.set(format, row.get(format)! + 1);
    if (format === sample.format) correct++;
    else misses.push(`${sample.format} → ${format}: ${JSON.stringify(sample.content.slice(0, 70))}`);
  }
  return { matrix, correct, total: SAMPLES.length, misses };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { matrix, correct, total, misses } = confusion();
  console.log(`| actual \\ detected | ${FORMATS.join(' | ')} |`);
  console.log(`|---|${FORMATS.map(() => '---:').join('|')}|`);
  for (const actual of FORMATS) console.log(`| ${actual} | ${FORMATS.map((f) => matrix.get(actual)!.get(f)).join(' | ')} |`);
  console.log(`\naccuracy ${correct}/${total} = ${((100 * correct) / total).toFixed(1)}%`);
  for (const miss of misses) console.log(`  miss: ${miss}`);
}

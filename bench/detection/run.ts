/**
 * Accuracy of source-language detection on short UI strings and on paragraphs in all 36
 * base languages (labelled-set.ts), for what ships (detection/detect-language.ts: eld's
 * medium table limited to our 36 languages) against baselines measured in the same run:
 * eld's same table over all 60 of its languages, and its small and large tables limited
 * like ours. Also: how accurate the detections above the model-hint threshold are, and the
 * time per detection. Run by hand: `npx tsx bench/detection/run.ts`.
 */
import { ELD_SUBSET, LanguageDetector } from '../../src/detection/detect-language.js';
import { HINT_CONFIDENCE } from '../../src/translation/detect-source.js';
import { BASE_CODES, labelledSet, type Sample } from './labelled-set.js';

interface Eld {
  detect(text: string): { language: string };
  setLanguageSubset(languages: string[] | false): unknown;
}

const FROM_ELD: Record<string, string> = { no: 'nb', ms: 'id' };

async function eldVariant(table: 'small' | 'medium' | 'large', subset: boolean): Promise<(text: string) => string> {
  // One module instance per table: eld keeps its subset in module state, so it is set
  // before every call here. (What ships is an instance of its own, detection/eld-detector.ts.)
  const { eld } = (await import(`eld/${table}`)) as { eld: Eld };
  return (text) => {
    eld.setLanguageSubset(subset ? [...ELD_SUBSET] : false);
    const language = eld.detect(text).language;
    return FROM_ELD[language] ?? language;
  };
}

const samples = labelledSet({ shortPerLanguage: 60, paragraphsPerLanguage: 15 });
const kinds = ['short', 'paragraph'] as const;

function accuracy(results: { sample: Sample; detected: string | undefined }[], kind: string): number {
  const ofKind = results.filter((r) => r.sample.kind === kind);
  return ofKind.filter((r) => r.detected === r.sample.language).length / ofKind.length;
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

const variants: [string, 'small' | 'medium' | 'large', boolean][] = [
  ['eld medium, all 60 languages (baseline)', 'medium', false],
  ['eld small, our 36', 'small', true],
  ['eld large, our 36', 'large', true],
];
const baselines: string[] = [];
for (const [name, table, subset] of variants) {
  const detect = await eldVariant(table, subset);
  const results = samples.map((sample) => ({ sample, detected: detect(sample.text) }));
  baselines.push(`| ${name} | ${pct(accuracy(results, 'short'))} | ${pct(accuracy(results, 'paragraph'))} |`);
}

// What ships, with timing and confidence.
const shipped: { sample: Sample; detected: string | undefined; confidence: number; ms: number }[] = [];
const detector = new LanguageDetector();
await detector.detect(['warm up']);
for (const sample of samples) {
  const started = performance.now();
  const result = await detector.detect([sample.text]);
  shipped.push({ sample, detected: result?.language.code, confidence: result?.confidence ?? 0, ms: performance.now() - started });
}

console.log(`samples: ${kinds.map((k) => `${samples.filter((s) => s.kind === k).length} ${k}`).join(', ')} over ${BASE_CODES.length} languages`);
console.log('\n| detector | short UI strings | paragraphs |\n|---|---|---|');
console.log(`| shipped: eld medium, our 36 languages | ${pct(accuracy(shipped, 'short'))} | ${pct(accuracy(shipped, 'paragraph'))} |`);
for (const line of baselines) console.log(line);

console.log(`\nhint threshold ${HINT_CONFIDENCE}: share of detections above it, and their accuracy`);
for (const kind of kinds) {
  const ofKind = shipped.filter((r) => r.sample.kind === kind);
  const above = ofKind.filter((r) => r.confidence >= HINT_CONFIDENCE);
  const below = ofKind.filter((r) => r.confidence < HINT_CONFIDENCE);
  const right = (rs: typeof ofKind) => (rs.length ? pct(rs.filter((r) => r.detected === r.sample.language).length / rs.length) : '–');
  console.log(`${kind}: ${pct(above.length / ofKind.length)} above (accuracy ${right(above)}), below: accuracy ${right(below)}`);
}

const times = shipped.map((r) => r.ms).sort((a, b) => a - b);
console.log(`\ntime per detection: median ${times[Math.floor(times.length / 2)]!.toFixed(3)} ms, p99 ${times[Math.floor(times.length * 0.99)]!.toFixed(3)} ms`);

console.log('\nworst languages on short strings (shipped):');
const perLanguage = BASE_CODES.map((language) => {
  const rs = shipped.filter((r) => r.sample.language === language && r.sample.kind === 'short');
  const wrong = rs.filter((r) => r.detected !== language).map((r) => r.detected ?? '∅');
  const top = Object.entries(wrong.reduce<Record<string, number>>((m, c) => ((m[c] = (m[c] ?? 0) + 1), m), {})).sort((a, b) => b[1] - a[1])[0];
  return { language, accuracy: rs.filter((r) => r.detected === language).length / rs.length, confusedWith: top?.[0] };
});
for (const row of perLanguage.sort((a, b) => a.accuracy - b.accuracy).slice(0, 8)) {
  console.log(`  ${row.language}: ${pct(row.accuracy)} (most often taken for ${row.confusedWith ?? '–'})`);
}

/**
 * Plurals bench (issue 32): what the target's extra plural branches cost in model tokens,
 * per target, for a catalog of 200 counted messages (ICU, in a JSON file).
 *
 *   npx tsx bench/plurals/extra-branches.ts [targets, default de,fr,es,ru,pl,cs,lt,uk,sl,he,lv,ar,ja,zh]
 *
 * For each target the catalog is extracted and shaped as the service does
 * (translation/segment-work.ts `distinctSegments`), and the user message is built with the
 * real prompt builder (engines/prompt.ts) in one call for that target. Baseline, in the
 * same run: the same segments in the source's shape with no `plurals:`/`branches:` lines
 * (what was sent before issue 32). Counts are o200k.
 *  - input:  tokens of the user message (segment lines plus the plural lines)
 *  - output: tokens of the answer JSON when the model returns each line as it was sent
 *            (an echo; a real translation differs in the words, not in the branches)
 */
import { buildUserMessage } from '../../src/engines/prompt.js';
import type { EngineLanguage, EngineSegment } from '../../src/engines/engine.js';
import { findLanguage } from '../../src/languages.js';
import { countTokens } from '../../test/helpers/tokenizer.js';
import { distinctSegments } from '../../src/translation/segment-work.js';
import { prepareDocument } from '../../src/translation/translate-document.js';

const TEMPLATES = [
  'You have {count, plural, one {# new message} other {# new messages}}',
  '{count, plural, =0 {No files selected} one {# file selected} other {# files selected}}',
  'Delete {count, plural, one {this item} other {these # items}}?',
  '{count, plural, one {# person likes this} other {# people like this}}',
  'Your trial ends in {days, plural, one {# day} other {# days}}.',
  '{count, plural, =0 {Nothing to sync} one {Syncing # change…} other {Syncing # changes…}}',
  'Showing {count, plural, one {# result} other {# results}} for {query}',
  '{minutes, plural, one {# minute ago} other {# minutes ago}}',
  'You finished {place, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}!',
  '{count, plural, one {# seat left at this price} other {# seats left at this price}}',
];

function catalog(size: number): string {
  const entries: Record<string, string> = {};
  // Distinct texts (a screen number in each), so none is deduplicated away.
  for (let i = 0; i < size; i++) entries[`message_${i}`] = `Screen ${i}: ${TEMPLATES[i % TEMPLATES.length]!}`;
  return JSON.stringify(entries, null, 2);
}

const ENGLISH: EngineLanguage = { code: 'en', name: 'English', rtl: false };

function answerTokens(code: string, segments: readonly EngineSegment[]): number {
  return countTokens(JSON.stringify({ translations: [{ lang: code, segments: segments.map((segment) => segment.text) }] }));
}

async function main(): Promise<void> {
  const codes = (process.argv[2] ?? 'de,fr,es,ru,pl,cs,lt,uk,sl,he,lv,ar,ja,zh').split(',');
  const content = catalog(200);
  const prepared = await prepareDocument(content, 'json', { largeDocumentChars: Infinity });
  const source = prepared.segments.map((segment, i) => ({ id: String(i), text: segment.text }));
  console.log('| target | input, source shape | input, target shape | ratio | output, source shape | output, target shape | ratio |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const code of codes) {
    const language = findLanguage(code)!;
    const target: EngineLanguage = { code: language.code, name: language.name, rtl: language.rtl };
    const { unique } = await distinctSegments([prepared], undefined, [target]);
    const shaped = unique.map((entry) => entry.segment);
    const input = (segments: readonly EngineSegment[]) => countTokens(buildUserMessage({ source: ENGLISH, targets: [target], format: 'json', segments }));
    const before = { input: input(source), output: answerTokens(code, source) };
    const after = { input: input(shaped), output: answerTokens(code, shaped) };
    console.log(
      `| ${code} | ${before.input} | ${after.input} | ${(after.input / before.input).toFixed(3)} | ${before.output} | ${after.output} | ${(after.output / before.output).toFixed(3)} |`,
    );
  }
  prepared.release();
}

await main();

/**
 * Property (CONTRACT §5, issue 32): any ICU message — plurals and selectordinals with
 * exact branches, `offset:`, `#`, arguments and selects nested in one another, its
 * branches spread over lines or not — translated by the pseudo engine into any of the 43
 * languages, in any format, comes back as a message @formatjs/icu-messageformat-parser
 * reads, in which every plural has exactly the source's exact branches and the target's
 * categories (as Intl.PluralRules reports them), kept branches in their place, new ones
 * before `other`, and every branch's content is its source branch's (for a new one,
 * `other`'s), letters aside.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import type { Format } from '../../src/formats/format.js';

/** The document formats; the locale-file formats carry counted forms of their own (docs/formats.md). */
type DocumentFormat = Extract<Format, 'plain' | 'markdown' | 'html' | 'json'>;
import { LANGUAGES } from '../../src/languages.js';
import { prepareDocument, translatePrepared } from '../../src/translation/translate-document.js';
import { unpseudo } from '../formats/helpers.js';
import { pseudo } from '../helpers/engines.js';
import { testTokenizer } from '../helpers/tokenizer.js';
import { propertyRuns } from '../helpers/property-runs.js';
import { targets } from './documents.js';

const CANONICAL = ['zero', 'one', 'two', 'few', 'many', 'other'];

const word = fc.stringMatching(/^[A-Za-z]{1,7}$/);
const words = fc.array(word, { minLength: 1, maxLength: 3 }).map((list) => list.join(' '));
const argumentName = fc.constantFrom('count', 'n', 'name', 'items');

/** A message body: words, arguments and nested messages; `#` only inside a plural. */
const messageOf = (depth: number, inPlural: boolean): fc.Arbitrary<string> => {
  const parts: fc.Arbitrary<string>[] = [words, argumentName.map((name) => `{${name}}`)];
  if (inPlural) parts.push(fc.constant('#'));
  if (depth > 0) parts.push(pluralOf(depth - 1), selectOf(depth - 1));
  return fc.array(fc.oneof(...parts), { minLength: 1, maxLength: 3 }).map((list) => list.join(' '));
};

const separator = fc.constantFrom(' ', '  ', '\n    ', '\n  ');

const pluralOf = (depth: number): fc.Arbitrary<string> =>
  fc
    .record({
      name: argumentName,
      type: fc.constantFrom('plural', 'selectordinal'),
      offset: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
      exact: fc.subarray(['=0', '=1', '=2']),
      categories: fc.subarray(['zero', 'one', 'two', 'few', 'many']),
      separator,
    })
    .chain(({ name, type, offset, exact, categories, separator: sep }) => {
      const keys = [...exact, ...categories, 'other'];
      return fc.tuple(...keys.map(() => messageOf(depth, true))).map((bodies) => {
        const head = `{${name}, ${type},${offset === undefined ? '' : ` offset:${offset}`}${sep}`;
        return `${head}${keys.map((key, i) => `${key} {${bodies[i]}}`).join(sep)}${sep.trimEnd() === '' && sep.includes('\n') ? '\n' : ''}}`;
      });
    });

const selectOf = (depth: number): fc.Arbitrary<string> =>
  fc.tuple(argumentName, messageOf(depth, false), messageOf(depth, false)).map(([name, a, b]) => `{${name}, select, male {${a}} other {${b}}}`);

/** A whole message with a word first, so its segment has a letter outside its marks. */
const message = fc.tuple(words, pluralOf(2), messageOf(1, false)).map(([lead, plural, tail]) => `${lead} ${plural} ${tail}`);

const WRAP: Readonly<Record<DocumentFormat, { wrap: (m: string) => string; unwrap: (answer: string) => string }>> = {
  plain: { wrap: (m) => m, unwrap: (answer) => answer },
  json: { wrap: (m) => JSON.stringify({ key: m }), unwrap: (answer) => JSON.parse(answer).key },
  html: { wrap: (m) => `<p>${m}</p>`, unwrap: (answer) => answer.replace(/^<p[^>]*>/, '').replace(/<\/p>$/, '') },
  markdown: { wrap: (m) => m, unwrap: (answer) => answer },
};

/** The branch keys a target must have, by the contract's rule, its categories straight from Intl. */
function expectedKeys(sourceKeys: readonly string[], categories: readonly string[]): string[] {
  const exact = (key: string) => key.startsWith('=');
  const has = new Set(sourceKeys.filter((key) => !exact(key)));
  const missing = CANONICAL.filter((category) => categories.includes(category) && !has.has(category));
  const keys: string[] = [];
  for (const key of sourceKeys) {
    if (key === 'other') keys.push(...missing);
    if (exact(key) || categories.includes(key)) keys.push(key);
  }
  return keys;
}

type Options = Record<string, { value: MessageFormatElement[] }>;

function assertShaped(source: readonly MessageFormatElement[], answer: readonly MessageFormatElement[], code: string): void {
  assert.equal(answer.length, source.length);
  source.forEach((element, i) => {
    const got = answer[i]!;
    assert.equal(got.type, element.type);
    if (element.type === TYPE.literal || element.type === TYPE.argument) assert.equal((got as { value: string }).value, element.value);
    if (element.type === TYPE.select) {
      const options = (got as { options: Options }).options;
      assert.deepEqual(Object.keys(options), Object.keys(element.options));
      for (const key of Object.keys(element.options)) assertShaped(element.options[key]!.value, options[key]!.value, code);
    }
    if (element.type === TYPE.plural) {
      const plural = got as typeof element;
      assert.equal(plural.value, element.value);
      assert.equal(plural.offset, element.offset);
      assert.equal(plural.pluralType, element.pluralType);
      const categories = new Intl.PluralRules(code, { type: element.pluralType }).resolvedOptions().pluralCategories;
      assert.deepEqual(Object.keys(plural.options), expectedKeys(Object.keys(element.options), categories), `${code} ${element.pluralType}`);
      for (const key of Object.keys(plural.options)) {
        assertShaped((element.options[key] ?? element.options.other)!.value, plural.options[key]!.value, code);
      }
    }
  });
}

describe('any ICU message into any target', () => {
  it('comes back valid ICU with exactly the target’s categories, in every format', async () => {
    const codes = LANGUAGES.map((language) => language.code);
    await fc.assert(
      fc.asyncProperty(message, fc.constantFrom(...codes), fc.constantFrom<DocumentFormat>('plain', 'json', 'html', 'markdown'), async (text, code, format) => {
        const { wrap, unwrap } = WRAP[format];
        const prepared = await prepareDocument(wrap(text), format, { largeDocumentChars: Infinity });
        try {
          const { translations } = await translatePrepared({ prepared, targets: targets(code), engine: pseudo(), tokenizer: testTokenizer });
          const answer = unpseudo(unwrap(translations[code]!));
          assertShaped(parse(text), parse(answer), code);
        } finally {
          prepared.release();
        }
      }),
      propertyRuns(150),
    );
  });
});

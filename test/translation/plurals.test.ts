/**
 * ICU plurals and i18next plural keys in the target's categories (CONTRACT §5, issue 32),
 * through the whole document path with the pseudo engine, in every format, for each shape
 * of category set: six forms (ar), two and few (sl), two (he), zero (lv), few and many
 * (ru, pl, cs, lt), only other (ja), many for millions (fr) and the source's own (de).
 * Answers are judged by @formatjs/icu-messageformat-parser and JSON.parse; the expected
 * sets are written out per language, from CLDR's rules as the contract states them.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse, TYPE, type MessageFormatElement, type PluralElement } from '@formatjs/icu-messageformat-parser';
import type { Format } from '../../src/formats/format.js';

/** The document formats; the locale-file formats carry counted forms of their own (docs/formats.md). */
type DocumentFormat = Extract<Format, 'plain' | 'markdown' | 'html' | 'json'>;
import { prepareDocument, translatePrepared } from '../../src/translation/translate-document.js';
import { unpseudo } from '../formats/helpers.js';
import { pseudo } from '../helpers/engines.js';
import { testTokenizer } from '../helpers/tokenizer.js';
import { icuPlurals } from '../helpers/icu.js';
import { targets } from './documents.js';

const MESSAGE =
  'You have {count, plural, offset:1 =0 {no messages} one {# message from {name}} other {# messages, {rank, selectordinal, one {#st} two {#nd} few {#rd} other {#th}} page}}.';

/** The outer message's branches per target: the source's `=0`, the target's categories in the contract's order. */
const CARDINAL: Readonly<Record<string, readonly string[]>> = {
  ar: ['=0', 'one', 'zero', 'two', 'few', 'many', 'other'],
  sl: ['=0', 'one', 'two', 'few', 'other'],
  he: ['=0', 'one', 'two', 'other'],
  lv: ['=0', 'one', 'zero', 'other'],
  ru: ['=0', 'one', 'few', 'many', 'other'],
  pl: ['=0', 'one', 'few', 'many', 'other'],
  cs: ['=0', 'one', 'few', 'many', 'other'],
  lt: ['=0', 'one', 'few', 'many', 'other'],
  ja: ['=0', 'other'],
  fr: ['=0', 'one', 'many', 'other'],
  de: ['=0', 'one', 'other'],
};
/** The nested selectordinal's (English's one, two, few, other in the source). */
const ORDINAL: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  Object.keys(CARDINAL).map((code) => [code, code === 'fr' ? ['one', 'other'] : ['other']]),
);
const CODES = Object.keys(CARDINAL);

/** The document of each format holding the message, and how to read the message back out of an answer. */
const DOCUMENTS: Readonly<Record<DocumentFormat, { content: string; message: (answer: string) => string }>> = {
  plain: { content: `Inbox\n\n${MESSAGE}\n`, message: (answer) => answer.split('\n\n')[1]!.trimEnd() },
  markdown: { content: `# Inbox\n\n${MESSAGE}\n`, message: (answer) => answer.split('\n\n')[1]!.trimEnd() },
  html: { content: `<h1>Inbox</h1>\n<p>${MESSAGE}</p>\n`, message: (answer) => /<p[^>]*>([\s\S]*)<\/p>/.exec(answer)![1]! },
  json: { content: JSON.stringify({ title: 'Inbox', body: MESSAGE }, null, 2), message: (answer) => JSON.parse(answer).body },
};

async function translate(content: string, format: Format, codes: readonly string[]): Promise<Record<string, string>> {
  const prepared = await prepareDocument(content, format, { largeDocumentChars: Infinity });
  try {
    return (await translatePrepared({ prepared, targets: targets(...codes), engine: pseudo(), tokenizer: testTokenizer })).translations;
  } finally {
    prepared.release();
  }
}

const optionsOf = (element: PluralElement) => element.options;
const withoutLocation = (value: unknown): string => JSON.stringify(value, (key, v) => (key === 'location' ? undefined : v));

describe('ICU plurals come back in the target’s categories', () => {
  for (const format of Object.keys(DOCUMENTS) as DocumentFormat[]) {
    it(`${format}: every category shape, nested selectordinal, offset, # and arguments intact`, async () => {
      const { content, message } = DOCUMENTS[format];
      const answers = await translate(content, format, CODES);
      for (const code of CODES) {
        const text = unpseudo(message(answers[code]!));
        const [outer, ...inner] = icuPlurals(text);
        assert.deepEqual(outer!.keys, CARDINAL[code], `${format} ${code}: ${text}`);
        assert.equal(outer!.offset, 1);
        assert.equal(outer!.argument, 'count');
        // The nested selectordinal is in `other`, and in each copy of `other` made for a new category.
        const copies = CARDINAL[code]!.filter((key) => !['=0', 'one'].includes(key)).length;
        assert.equal(inner.length, copies, `${format} ${code}`);
        for (const ordinal of inner) assert.deepEqual([ordinal.argument, ordinal.type, ordinal.keys], ['rank', 'ordinal', ORDINAL[code]]);
      }
    });
  }

  it('a new branch is the pseudo translation of the source’s other, the kept ones their own', async () => {
    const answers = await translate(MESSAGE, 'plain', ['ru', 'ar']);
    for (const code of ['ru', 'ar']) {
      const plural = parse(answers[code]!).find((element): element is PluralElement => element.type === TYPE.plural)!;
      const options = optionsOf(plural);
      for (const added of CARDINAL[code]!.filter((key) => !['=0', 'one', 'other'].includes(key))) {
        assert.equal(withoutLocation(options[added]!.value), withoutLocation(options.other!.value), `${code} ${added}`);
      }
      assert.equal(unpseudo(printLiterals(options['=0']!.value)), 'no messages');
      assert.match(answers[code]!, /\{ñö ṁéššáĝéš\}/);
    }
  });

  it('English into German is byte-exact under pseudo in every format', async () => {
    // German counts like English (one, other); its ordinals are only other, so the message here has none.
    const german = 'You have {count, plural, offset:1 =0 {no messages} one {# message from {name}} other {# messages}}.';
    for (const format of Object.keys(DOCUMENTS) as DocumentFormat[]) {
      const content = DOCUMENTS[format].content.replace(MESSAGE, german);
      assert.notEqual(content, DOCUMENTS[format].content);
      const answers = await translate(content, format, ['de']);
      assert.equal(unpseudo(answers.de!), content, format);
    }
  });

  it('a plain-text plural spread over lines is recognised: its skeleton stays, lines and indentation too', async () => {
    const content = 'You have {files, plural,\n    one {# file}\n    other {# files}\n} left.';
    const answers = await translate(content, 'plain', ['de', 'ru', 'ja']);
    assert.equal(answers.de, 'Ýöü ĥáṽé {files, plural,\n    one {# ḟíļé}\n    other {# ḟíļéš}\n} ļéḟţ.');
    assert.equal(answers.ru, 'Ýöü ĥáṽé {files, plural,\n    one {# ḟíļé}\n    few {# ḟíļéš}\n    many {# ḟíļéš}\n    other {# ḟíļéš}\n} ļéḟţ.');
    assert.equal(answers.ja, 'Ýöü ĥáṽé {files, plural,\n    other {# ḟíļéš}\n} ļéḟţ.');
  });

  it('the issue’s example: Russian gets one, few, many and other', async () => {
    const answers = await translate('You have {count, plural, =0 {no messages} one {# message} other {# messages}}.', undefined as never, ['ru']);
    assert.equal(
      answers.ru,
      'Ýöü ĥáṽé {count, plural, =0 {ñö ṁéššáĝéš} one {# ṁéššáĝé} few {# ṁéššáĝéš} many {# ṁéššáĝéš} other {# ṁéššáĝéš}}.',
    );
  });

  it('a select is no plural: its keys stay, while a plural inside it is shaped', async () => {
    const answers = await translate('{gender, select, one {He has {n, plural, one {# cat} other {# cats}}} other {They}}', 'plain', ['ja']);
    const parsed = parse(unpseudo(answers.ja!));
    const select = parsed[0] as MessageFormatElement & { options: Record<string, { value: MessageFormatElement[] }> };
    assert.deepEqual(Object.keys(select.options), ['one', 'other']);
    assert.deepEqual(icuPlurals(unpseudo(answers.ja!))[0]!.keys, ['other']);
  });
});

describe('hostile nesting', () => {
  it('plurals nested 30 deep into Arabic (each level copied four times more) are refused as too complex, not grown as 5³⁰', async () => {
    let message = 'x';
    for (let level = 0; level < 30; level++) message = `{n${level}, plural, one {a} other {b ${message}}}`;
    const started = performance.now();
    await assert.rejects(translate(`Text ${message}`, 'plain', ['ar']), (error: Error & { code?: string }) => error.code === 'document_too_complex');
    assert.ok(performance.now() - started < 5_000, 'refused quickly');
    // Two levels, as real messages nest, are fine.
    const answers = await translate('Text {a, plural, one {x} other {y {b, plural, one {z} other {w}}}}', 'plain', ['ar']);
    assert.equal(icuPlurals(unpseudo(answers.ar!)).length, 1 + 5);
  });
});

describe('i18next plural keys in JSON come back as the target’s keys', () => {
  const content = [
    '{',
    '  "inbox": {',
    '    "title": "Inbox",',
    '    "message_zero": "No messages",',
    '    "message_one": "{{count}} message",',
    '    "message_other": "{{count}} messages"',
    '  },',
    '  "place_ordinal_one": "{{count}}st place",',
    '  "place_ordinal_two": "{{count}}nd place",',
    '  "place_ordinal_few": "{{count}}rd place",',
    '  "place_ordinal_other": "{{count}}th place",',
    '  "status_other": "Something else"',
    '}',
  ].join('\n');

  it('per category shape: _zero kept as “exactly 0”, missing keys before _other, extra ones removed with their line', async () => {
    const answers = await translate(content, 'json', CODES);
    for (const code of CODES) {
      const answer = JSON.parse(answers[code]!);
      const expected = ['title', 'message_zero', ...CARDINAL[code]!.filter((key) => key !== '=0' && key !== 'zero').map((key) => `message_${key}`)];
      assert.deepEqual(Object.keys(answer.inbox), expected, code);
      const ordinals = Object.keys(answer).filter((key) => key.startsWith('place_'));
      assert.deepEqual(ordinals, ORDINAL[code]!.map((key) => `place_ordinal_${key}`), code);
      assert.equal(unpseudo(answer.status_other), 'Something else', 'a lone _other is no plural');
    }
  });

  it('is byte-exact into English, and a new key is the pseudo text of _other on a line of its own', async () => {
    const answers = await translate(content, 'json', ['en', 'ru']);
    assert.equal(unpseudo(answers.en!), content);
    assert.match(answers.ru!, /\n {4}"message_few": "\{\{count\}\} ṁéššáĝéš",\n {4}"message_many": "\{\{count\}\} ṁéššáĝéš",\n {4}"message_other"/);
  });
});

function printLiterals(elements: readonly MessageFormatElement[]): string {
  return elements.map((element) => (element.type === TYPE.literal ? element.value : '')).join('');
}

/**
 * Flutter ARB (docs/formats.md "arb", CONTRACT §5 and §6): every answer is JSON that
 * JSON.parse reads with the source's keys in the source's order, `@@locale` set to the
 * target in ARB's spelling, `@key` metadata unchanged; byte-exact under pseudo outside the
 * messages and `@@locale`; descriptions reach the model as notes; placeholders and ICU
 * skeletons are marks; bad input is refused with its line, hostile nesting at once.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ServiceError } from '../../src/errors.js';
import { detectFormat, getAdapter, shapePlurals } from '../../src/formats/index.js';
import { byteExactProblem } from './byte-exact.js';
import { pseudoRender } from './helpers.js';

const SOURCE = `{
  "@@locale": "en",
  "@@last_modified": "2026-11-28T10:00:00",
  "appTitle": "Photo album",
  "@appTitle": {
    "description": "The title of the application"
  },
  "greeting": "Hello {name}, you have {count, plural, =0{no new photos} one{one new photo} other{{count} new photos}}",
  "@greeting": {
    "description": "Shown on the home screen",
    "placeholders": {
      "name": {"type": "String", "example": "Ada"},
      "count": {"type": "int"}
    }
  },
  "pronoun": "{gender, select, male{He liked it} female{She liked it} other{They liked it}}",
  "url": "https://example.com/help",
  "quote": "Say \\"cheese\\"\\n\\u00e9t\\u00e9"
}
`;

const doc = getAdapter('arb').extract(SOURCE);
const segmentOf = (start: string) => {
  const segment = doc.segments.find((s) => s.text.startsWith(start));
  assert.ok(segment, `no segment starts with ${start}: ${doc.segments.map((s) => s.text).join(' | ')}`);
  return segment;
};

describe('arb', () => {
  it('is detected, and JSON without ARB metadata stays json', () => {
    assert.equal(detectFormat(SOURCE).format, 'arb');
    assert.equal(detectFormat('{\n  "title": "Photo album",\n  "@title": {}\n}\n').format, 'arb');
    assert.equal(detectFormat('{\n  "title": "Photo album",\n  "count": 3\n}\n').format, 'json');
  });

  for (const target of [
    { code: 'pt-BR', rtl: false },
    { code: 'zh-Hant', rtl: false },
    { code: 'ar', rtl: true },
  ]) {
    it(`answers ${target.code}: JSON with the source's keys, @@locale in ARB's spelling, metadata unchanged, byte-exact under pseudo`, () => {
      const answer = pseudoRender(doc, target);
      const parsed = JSON.parse(answer) as Record<string, unknown>;
      const source = JSON.parse(SOURCE) as Record<string, unknown>;
      assert.deepEqual(Object.keys(parsed), Object.keys(source));
      assert.equal(parsed['@@locale'], target.code.replace('-', '_'));
      assert.deepEqual(parsed['@greeting'], source['@greeting']);
      assert.equal(parsed['@@last_modified'], source['@@last_modified']);
      assert.equal(parsed.url, source.url);
      assert.notEqual(parsed.appTitle, source.appTitle);
      assert.equal(byteExactProblem(doc, target), undefined);
    });
  }

  it('gives the model each description as the message\'s note, and placeholders and ICU skeletons as marks', () => {
    assert.match(segmentOf('Photo album').note ?? '', /The title of the application/);
    const greeting = segmentOf('Hello');
    assert.match(greeting.note ?? '', /Shown on the home screen/);
    assert.ok(!/\{name\}|plural/.test(greeting.text), greeting.text);
    assert.equal(greeting.plurals?.length, 1);
    assert.ok(!/select/.test(segmentOf('<x1/><g1>He').text));
  });

  it('shapes an ICU plural for the target (Russian gets one/few/many/other, the exact =0 kept)', () => {
    const greeting = segmentOf('Hello');
    const shaped = shapePlurals(greeting, 'ru')!;
    const translations = new Map(doc.segments.map((s) => [s.id, s.text]));
    translations.set(greeting.id, shaped.text);
    const answer = doc.render(translations, { code: 'ru', rtl: false });
    const message = (JSON.parse(answer) as Record<string, string>).greeting!;
    assert.match(message, /=0\{no new photos\} one\{one new photo\} few\{\{count\} new photos\} many\{\{count\} new photos\} other\{\{count\} new photos\}\}$/);
  });

  it('writes a translation as a JSON string (quotes, backslashes, line breaks escaped)', () => {
    const translations = new Map(doc.segments.map((s) => [s.id, s.text]));
    translations.set(segmentOf('Photo album').id, 'Álbum "de" fotos\\\n');
    const parsed = JSON.parse(doc.render(translations, { code: 'pt-BR', rtl: false })) as Record<string, string>;
    assert.equal(parsed.appTitle, 'Álbum "de" fotos\\\n');
  });

  it('names each entry by its key, with its description', () => {
    const entries = (doc as unknown as { entries: { key: string; notes: string[] }[] }).entries;
    assert.deepEqual(entries.map((e) => e.key), ['appTitle', 'greeting', 'pronoun', 'url', 'quote']);
    assert.deepEqual(entries[0]!.notes, ['The title of the application']);
  });

  it('refuses a file that does not parse, naming the line, and a file that is not an object', () => {
    const refused = (content: string, line: number) =>
      assert.throws(
        () => getAdapter('arb').extract(content),
        (error: unknown) => error instanceof ServiceError && error.code === 'invalid_request' && new RegExp(`line ${line}\\b`).test(error.message),
      );
    refused('{\n  "a": "A",\n  "b": "B",\n}\n', 4);
    refused('{\n  "a": "A"\n  "b": "B"\n}\n', 3);
    refused('["a"]\n', 1);
  });

  it('refuses nesting past the limit at once, and reads a 2 MiB message in bounded time', () => {
    assert.throws(
      () => getAdapter('arb').extract(`{"a": ${'['.repeat(100_000)}`),
      (error: unknown) => error instanceof ServiceError && error.code === 'document_too_complex',
    );
    const started = performance.now();
    const big = getAdapter('arb').extract(`{"@@locale": "en", "a": "${'word '.repeat(400_000)}"}`);
    big.render(big.segments.map((s) => s.text), { code: 'fr', rtl: false });
    assert.ok(performance.now() - started < 20_000, `${performance.now() - started} ms`);
  });
});

/**
 * Apple `.strings` (docs/formats.md "strings"): answers translate-toolkit reads into the
 * same keys with each value the translation of its source, byte-exact under pseudo
 * outside the values (escapes decoded inside a value allowed), `%@`-style directives
 * kept, comments as notes, and bad input refused with its line.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ServiceError } from '../../src/errors.js';
import { detectFormat, getAdapter } from '../../src/formats/index.js';
import { toolkitStrings } from './apple-judges.js';
import { byteExactProblem, firstByteDifference } from './byte-exact.js';
import { pseudoRender, unpseudo } from './helpers.js';

const FILE = [
  '/* Title of the save button */',
  '"save.button" = "Save";',
  '',
  '// A line comment before an entry',
  '"files.selected" = "%1$@ selected in %2$@";',
  '/* No comment provided by engineer. */',
  '"Hello, %@!" = "Hello, %@!";',
  '"count" = "%lld items, %.2f MB, 100%% done";',
  '"quote" = "Say \\"hi\\" to\\nthe \\U00e9quipe";',
  '"plural" = "%#@files@ left";',
  'NSCameraUsageDescription = "The camera scans QR codes.";',
  '"url" = "https://example.com/help";',
  "'single' = 'It is \\'quoted\\'';",
  '"escaped.break" = "First line.\\',
  'Second line.";',
  '',
].join('\n');

const RU = { code: 'ru', rtl: false };
const AR = { code: 'ar', rtl: true };

describe('.strings', () => {
  const doc = getAdapter('strings').extract(FILE);

  it('translates values, never keys or comments', () => {
    const texts = doc.segments.map((s) => s.text).join(' | ');
    assert.match(texts, /Save/);
    assert.doesNotMatch(texts, /save\.button|NSCamera|Title of the save|example\.com/);
  });

  it('keeps %@, %1$@, %lld, %.2f, %% and %#@var@ as marks', () => {
    const texts = doc.segments.map((s) => s.text).join('\n');
    assert.doesNotMatch(texts, /%/);
    const answer = pseudoRender(doc, RU);
    for (const directive of ['%1$@', '%2$@', '%@', '%lld', '%.2f', '%%', '%#@files@']) assert.ok(answer.includes(directive), directive);
  });

  it('is byte-exact outside the values for a left-to-right and a right-to-left target', () => {
    for (const target of [RU, AR]) assert.equal(byteExactProblem(doc, target), undefined);
    assert.match(pseudoRender(doc, RU), /^"quote" = "Šáý \\"ĥí\\" ţö\\nţĥé éq̇üíṗé";$/m);
    // A line break escaped by a backslash (CFPropertyList reads it as the break) stays so.
    assert.match(pseudoRender(doc, RU), /^"escaped\.break" = "Ḟíŕšţ ļíñé\.\\\nŠéçöñḋ ļíñé\.";$/m);
  });

  it('answers files translate-toolkit reads into the same keys, each value the translation of its source', () => {
    const source = toolkitStrings(FILE);
    for (const target of [RU, AR]) {
      const answer = toolkitStrings(pseudoRender(doc, target));
      assert.deepEqual(Object.keys(answer), Object.keys(source));
      // translate-toolkit keeps \U escapes as written; its reading of the source has one.
      for (const key of Object.keys(source)) if (key !== 'quote') assert.equal(unpseudo(answer[key]!), source[key], key);
    }
  });

  it('gives the model the comment before an entry, without genstrings\' "No comment provided"', () => {
    const notes = doc.segments.map((s) => s.note);
    assert.ok(notes.includes('key: save.button | Title of the save button'), JSON.stringify(notes));
    assert.ok(notes.includes('A line comment before an entry'));
    assert.ok(!notes.some((note) => note?.includes('No comment provided')));
  });

  it('is detected when format is omitted, UTF-16 BOM and all', () => {
    assert.equal(detectFormat(FILE).format, 'strings');
    assert.equal(detectFormat(`\ufeff${FILE}`).format, 'strings');
    assert.notEqual(detectFormat('key = value\nother = thing\n').format, 'strings');
  });

  it('writes an unquoted value back unquoted while it stays an old-style word, quoted once it does not', () => {
    // GNUstep's Spanish Localizable.strings writes `Redo = Rehacer;`: a word needs no quotes.
    const words = '/* Undo */\nRedo = Rehacer;\nUndo = Deshacer ;\n';
    const wordsDoc = getAdapter('strings').extract(words);
    const translations = new Map(wordsDoc.segments.map((s) => [s.id, s.text === 'Rehacer' ? 'Wiederholen' : 'Rückgängig machen']));
    assert.equal(wordsDoc.render(translations, RU), '/* Undo */\nRedo = Wiederholen;\nUndo = "Rückgängig machen" ;\n');
    for (const target of [RU, AR]) {
      assert.equal(byteExactProblem(wordsDoc, target), undefined);
      assert.match(pseudoRender(wordsDoc, target), /^Redo = "[^"]+";$/m);
      assert.deepEqual(Object.keys(toolkitStrings(pseudoRender(wordsDoc, target))), ['Redo', 'Undo']);
    }
    // The allowance is for quotes around such a value only: a quote anywhere else still differs.
    assert.notEqual(firstByteDifference('strings', 'Redo = Rehacer;', 'Redo = "Rehacer" ;'), undefined);
    assert.notEqual(firstByteDifference('strings', 'Redo = Rehacer;', '"Redo" = Rehacer;'), undefined);
    assert.equal(firstByteDifference('strings', 'Redo = Rehacer;', 'Redo = "Rehacer";'), undefined);
  });

  it('refuses a file that does not parse with invalid_request naming the line', () => {
    for (const [bad, line] of [
      ['"a" = "b";\n"c" = "d"\n"e" = "f";\n', 3],
      ['"a" = "b";\n\n/* never closed\n', 3],
      ['"a" = "b;\n', 1],
      ['bplist00\u00d1\u0001\u0002', 1],
    ] as const) {
      assert.throws(
        () => getAdapter('strings').extract(bad),
        (error: unknown) => error instanceof ServiceError && error.code === 'invalid_request' && error.message.includes(`line ${line}`),
        bad,
      );
    }
  });

  it('reads a 2 MiB single value in bounded time', () => {
    const big = `"big" = "${'word '.repeat(420_000)}";\n`;
    const started = performance.now();
    const answer = pseudoRender(getAdapter('strings').extract(big), RU);
    assert.ok(answer.startsWith('"big" = "ŵöŕḋ '));
    assert.ok(performance.now() - started < 20_000);
  });
});

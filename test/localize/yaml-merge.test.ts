/**
 * Where `sync` puts a new YAML entry in an existing target (decision 0103), on the
 * shapes the end-to-end test (sync-yaml-xliff.test.ts) does not reach: the request is the
 * source with the other entries cut out, the answer its pseudo translation (the `pseudo`
 * engine's), and the merged target is judged by the `yaml` package (YAML 1.2): every key
 * at its path, the target's own values kept.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { getAdapter } from '../../src/formats/index.js';
import { mergeEntries, noEntries, partialDocument, readEntryFile } from '../../src/localize/entry-files.js';
import { pseudoRender, unpseudo } from '../formats/helpers.js';

const DE = { code: 'de', rtl: false };

/** The target after a sync of `source` into `target`: the keys the target lacks are sent and merged. */
function synced(source: string, target: string): string {
  const sourceEntries = readEntryFile('yaml', source)!;
  const targetEntries = readEntryFile('yaml', target)!;
  const sent = [...sourceEntries.keys()].filter((key) => !targetEntries.has(key));
  const answer = pseudoRender(getAdapter('yaml').extract(partialDocument(source, sourceEntries, new Set(sent))), DE);
  return mergeEntries(target, targetEntries, answer, readEntryFile('yaml', answer)!, [...sourceEntries.keys()], sent, [], 'nested');
}

const values = (text: string): unknown => JSON.parse(unpseudo(JSON.stringify(parse(text))));

describe('a new YAML entry merged into its mapping', () => {
  it('goes past the rest of the mapping of the entry before it (lines that are no entries)', () => {
    const source = 'en:\n  a:\n    b:\n      c: Text here\n      order: [":x"]\n      url: https://example.com\n    x: New text\n';
    const target = 'de:\n  a:\n    b:\n      c: Eigener Text\n      order: [":x"]\n      url: https://example.com\n';
    const merged = synced(source, target);
    assert.deepEqual(values(merged), { de: { a: { b: { c: 'Eigener Text', order: [':x'], url: 'https://example.com' }, x: 'New text' } } });
  });

  it('goes before the first member of its mapping when it comes first', () => {
    const source = 'en:\n  a:\n    first: First one\n    second: Second one\n';
    const target = 'de:\n  a:\n    second: Zweite\n';
    const merged = synced(source, target);
    assert.deepEqual(values(merged), { de: { a: { first: 'First one', second: 'Zweite' } } });
    assert.match(merged, /^de:\n  a:\n    first: .*\n    second: Zweite\n$/);
  });

  it('brings the mappings the target lacks, with every new entry under them, once', () => {
    const source = 'en:\n  a:\n    one: One\n  # Signing in\n  account:\n    forms:\n      sign_in: Sign in\n      sign_up: Sign up\n    title: Your account\n  z: Last one\n';
    const target = 'de:\n  a:\n    one: Eins\n  z: Letzte\n';
    const merged = synced(source, target);
    assert.deepEqual(values(merged), { de: { a: { one: 'Eins' }, account: { forms: { sign_in: 'Sign in', sign_up: 'Sign up' }, title: 'Your account' }, z: 'Letzte' } });
    assert.match(merged, /\n  # Signing in\n  account:\n/);
    assert.deepEqual([...readEntryFile('yaml', merged)!.keys()], ['a.one', 'account.forms.sign_in', 'account.forms.sign_up', 'account.title', 'z']);
  });

  it('fills a target that has no entries yet', () => {
    const merged = synced('en:\n  a:\n    b: Some text\n', 'de:\n');
    assert.deepEqual(values(merged), { de: { a: { b: 'Some text' } } });
  });

  it('gives no place to a string in a sequence, even in a mapping of an item: the file is synced whole', () => {
    for (const source of ['en:\n  days:\n    - Sunday morning\n', 'en:\n  list:\n    - name: Foo bar\n      title: Bar baz\n', 'en:\n  a: {b: Some text}\n']) {
      assert.equal(readEntryFile('yaml', source), undefined, source);
    }
    assert.ok(readEntryFile('yaml', 'en:\n  order: [":year", ":month"]\n  title: Some text\n'), 'a list of what is not prose has no entries');
  });

  it('cuts a mapping its removed entries leave empty, so that one coming back is one key', () => {
    const target = 'de:\n  a:\n    one: Eins\n  # Old things\n  old:\n    deep:\n      x: Alt\n    y: Auch alt\n  z: Letzte\n';
    const targetEntries = readEntryFile('yaml', target)!;
    const order = ['a.one', 'z'];
    const cut = mergeEntries(target, targetEntries, '', noEntries('yaml'), order, [], ['old.deep.x', 'old.y'], 'nested');
    assert.equal(cut, 'de:\n  a:\n    one: Eins\n  z: Letzte\n');
    const back = synced('en:\n  a:\n    one: One\n  old:\n    y: Old too\n  z: Last one\n', cut);
    assert.deepEqual(values(back), { de: { a: { one: 'Eins' }, old: { y: 'Old too' }, z: 'Letzte' } });
    assert.equal(back.match(/^  old:/gm)?.length, 1);
  });

  it('puts new entries of two depths at one place deepest first', () => {
    const source = 'en:\n  admin:\n    title: Admin area\n    nav:\n      apps: Applications\n      home: Home page\n  other:\n    x: Something\n';
    const target = 'de:\n  admin:\n    nav:\n      apps: Anwendungen\n  other:\n    x: Etwas\n';
    const merged = synced(source, target);
    assert.deepEqual(values(merged), { de: { admin: { title: 'Admin area', nav: { apps: 'Anwendungen', home: 'Home page' } }, other: { x: 'Etwas' } } });
  });
});

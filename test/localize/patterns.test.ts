import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { checkPattern, FilePattern } from '../../src/localize/patterns.js';

describe('{locale} file patterns', () => {
  let root: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'translate-patterns-'));
    for (const path of [
      'locales/en.json',
      'locales/fr.json',
      'docs/en/index.md',
      'docs/en/guide/install.md',
      'docs/en/guide/deep/er.md',
      'docs/en/notes.txt',
      'docs/fr/index.md',
      'src/i18n/messages.en.json',
      'docs/en/node_modules/x.md',
    ]) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), '{}');
    }
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('lists the source files a pattern names, in every folder ** reaches, and nothing of other locales or node_modules', () => {
    assert.deepEqual(new FilePattern('docs/{locale}/**/*.md').list(root, 'en'), ['docs/en/guide/deep/er.md', 'docs/en/guide/install.md', 'docs/en/index.md']);
    assert.deepEqual(new FilePattern('locales/{locale}.json').list(root, 'en'), ['locales/en.json']);
    assert.deepEqual(new FilePattern('src/i18n/messages.{locale}.json').list(root, 'en'), ['src/i18n/messages.en.json']);
    assert.deepEqual(new FilePattern('locales/{locale}.json').list(root, 'de'), []);
  });

  it('maps a source path to each target path, wildcards keeping what they matched', () => {
    const docs = new FilePattern('docs/{locale}/**/*.md');
    assert.equal(docs.pathFor('docs/en/guide/deep/er.md', 'en', 'pt-BR'), 'docs/pt-BR/guide/deep/er.md');
    assert.equal(docs.pathFor('docs/en/index.md', 'en', 'fr'), 'docs/fr/index.md');
    assert.equal(new FilePattern('{locale}/strings-?.json').pathFor('en/strings-a.json', 'en', 'de'), 'de/strings-a.json');
    assert.equal(new FilePattern('i18n/{locale}/{locale}.json').pathFor('i18n/en/en.json', 'en', 'fr'), 'i18n/fr/fr.json');
  });

  it('refuses patterns it could not map, saying why', () => {
    assert.match(checkPattern('locales/en.json')!, /no \{locale\} slot/);
    assert.match(checkPattern('/abs/{locale}.json')!, /relative/);
    assert.match(checkPattern('../{locale}.json')!, /"\.\."/);
    assert.match(checkPattern('docs/{locale}/*.{md,mdx}')!, /only \* \? \*\* and \{locale\}/);
    assert.match(checkPattern('docs/{locale}/a**/x.md')!, /whole folder/);
    assert.match(checkPattern('docs/{locale}/**')!, /end with a file name/);
    assert.equal(checkPattern('docs/{locale}/**/*.md'), undefined);
  });
});

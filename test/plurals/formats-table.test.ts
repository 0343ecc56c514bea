/**
 * docs/formats.md's table of plural categories per language stays true: it is generated
 * from Node's Intl.PluralRules for the 43 languages, and this test regenerates it.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { LANGUAGES } from '../../src/languages.js';

const CANONICAL = ['zero', 'one', 'two', 'few', 'many', 'other'];

function categories(code: string, type: Intl.PluralRuleType): string {
  const reported: readonly string[] = new Intl.PluralRules(code, { type }).resolvedOptions().pluralCategories;
  return CANONICAL.filter((category) => reported.includes(category)).join(', ');
}

function expectedTable(): string {
  return [
    '| code | language | `plural` (cardinal) | `selectordinal` (ordinal) |',
    '| --- | --- | --- | --- |',
    ...LANGUAGES.map((language) => `| ${language.code} | ${language.name} | ${categories(language.code, 'cardinal')} | ${categories(language.code, 'ordinal')} |`),
  ].join('\n');
}

describe('docs/formats.md', () => {
  it('lists every language’s plural categories as Intl reports them', () => {
    const doc = readFileSync(new URL('../../docs/formats.md', import.meta.url), 'utf8');
    const table = /<!-- plural-table:start -->\n([\s\S]*?)\n<!-- plural-table:end -->/.exec(doc);
    assert.ok(table, 'the plural table markers are in docs/formats.md');
    assert.equal(table[1], expectedTable(), `replace the table with:\n${expectedTable()}`);
  });
});

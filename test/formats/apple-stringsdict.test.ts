/**
 * Apple `.stringsdict` (docs/formats.md "stringsdict"; CONTRACT §5): each plural
 * variable answers with the target's full CLDR categories (a source `zero` kept), the
 * format key's text is translated outside its `%#@var@` tokens, and everything else of
 * the plist stays byte for byte; Python's plistlib and translate-toolkit read every
 * answer. Hostile shapes (entity declarations, deep nesting) are refused.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ServiceError } from '../../src/errors.js';
import { detectFormat, getAdapter } from '../../src/formats/index.js';
import { plistlibRead, toolkitStringsdict } from './apple-judges.js';
import { byteExactProblem } from './byte-exact.js';
import { pseudoRender, unpseudo } from './helpers.js';

const FILE = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
	<key>files_selected</key>
	<dict>
		<key>NSStringLocalizedFormatKey</key>
		<string>%#@files@ in %#@folders@ &amp; more</string>
		<key>files</key>
		<dict>
			<key>NSStringFormatSpecTypeKey</key>
			<string>NSStringPluralRuleType</string>
			<key>NSStringFormatValueTypeKey</key>
			<string>lld</string>
			<key>zero</key>
			<string>No files</string>
			<key>one</key>
			<string>%lld file</string>
			<key>other</key>
			<string>%lld files</string>
		</dict>
		<key>folders</key>
		<dict>
			<key>NSStringFormatSpecTypeKey</key>
			<string>NSStringPluralRuleType</string>
			<key>NSStringFormatValueTypeKey</key>
			<string>d</string>
			<key>one</key>
			<string>one folder</string>
			<key>other</key>
			<string>%d folders</string>
		</dict>
	</dict>
</dict>
</plist>
`;

type Plist = Record<string, Record<string, Record<string, string> | string>>;

const categoriesOf = (plist: Plist, variable: string): string[] =>
  Object.keys(plist.files_selected![variable] as Record<string, string>).filter((key) => !key.startsWith('NSString'));

describe('.stringsdict', () => {
  const doc = getAdapter('stringsdict').extract(FILE);

  it('translates the format key outside its variables and each plural form, never keys or types', () => {
    const texts = doc.segments.map((s) => s.text);
    assert.ok(texts.some((t) => /^<x\d+\/> in <x\d+\/> & more$/.test(t)), JSON.stringify(texts));
    // A plural variable's forms are one segment, a branch pair per form (decision 0098).
    assert.ok(texts.some((t) => /^<g\d+>No files<\/g\d+><g\d+>/.test(t)), JSON.stringify(texts));
    assert.ok(!texts.some((t) => /NSString|lld$|^d$/.test(t)));
  });

  it('gives each plural variable the target\'s full CLDR categories, keeping a source zero', () => {
    const ru = pseudoRender(doc, { code: 'ru', rtl: false });
    const plist = plistlibRead(ru) as Plist;
    assert.deepEqual(categoriesOf(plist, 'files'), ['zero', 'one', 'few', 'many', 'other']);
    assert.deepEqual(categoriesOf(plist, 'folders'), ['one', 'few', 'many', 'other']);
    assert.equal((plist.files_selected!.files as Record<string, string>).few, (plist.files_selected!.files as Record<string, string>).other);
    assert.equal((plist.files_selected!.folders as Record<string, string>).NSStringFormatValueTypeKey, 'd');
    const ja = plistlibRead(pseudoRender(doc, { code: 'ja', rtl: false })) as Plist;
    assert.deepEqual(categoriesOf(ja, 'files'), ['zero', 'other']);
    assert.deepEqual(categoriesOf(ja, 'folders'), ['other']);
    const ar = plistlibRead(pseudoRender(doc, { code: 'ar', rtl: true })) as Plist;
    // Added forms go just before `other`, in canonical order (CONTRACT §5), after the kept `one`.
    assert.deepEqual(categoriesOf(ar, 'folders'), ['one', 'zero', 'two', 'few', 'many', 'other']);
  });

  it('writes added forms on lines of their own, indented like the source\'s', () => {
    const ru = pseudoRender(doc, { code: 'ru', rtl: false });
    assert.match(ru, /\n\t\t\t<key>one<\/key>\n\t\t\t<string>%lld ḟíļé<\/string>\n\t\t\t<key>few<\/key>\n\t\t\t<string>%lld ḟíļéš<\/string>\n\t\t\t<key>many<\/key>/);
  });

  it('is byte-exact outside the values (the source itself for a language that counts like English)', () => {
    for (const target of [{ code: 'de', rtl: false }, { code: 'ru', rtl: false }, { code: 'ar', rtl: true }]) assert.equal(byteExactProblem(doc, target), undefined);
    assert.equal(unpseudo(pseudoRender(doc, { code: 'de', rtl: false })), FILE);
  });

  it('answers plists translate-toolkit reads into the same units', () => {
    const source = toolkitStringsdict(FILE);
    const answer = toolkitStringsdict(pseudoRender(doc, { code: 'fr', rtl: false }));
    assert.deepEqual(Object.keys(answer).sort(), Object.keys(source).sort());
  });

  it('translates a device-specific variable\'s texts and keeps its cases', () => {
    const device = FILE.replace('<key>folders</key>\n\t\t<dict>\n\t\t\t<key>NSStringFormatSpecTypeKey</key>\n\t\t\t<string>NSStringPluralRuleType</string>', '<key>folders</key>\n\t\t<dict>\n\t\t\t<key>NSStringFormatSpecTypeKey</key>\n\t\t\t<string>NSStringDeviceSpecificRuleType</string>');
    const answer = plistlibRead(pseudoRender(getAdapter('stringsdict').extract(device), { code: 'ru', rtl: false })) as Plist;
    assert.deepEqual(answer.files_selected!.folders, { NSStringFormatSpecTypeKey: 'NSStringDeviceSpecificRuleType', NSStringFormatValueTypeKey: 'd', one: 'öñé ḟöļḋéŕ', other: '%d ḟöļḋéŕš' });
  });

  it('is detected when format is omitted, and is not generic XML', () => {
    assert.equal(detectFormat(FILE).format, 'stringsdict');
    assert.notEqual(detectFormat('<?xml version="1.0"?>\n<plist version="1.0"><dict><key>CFBundleName</key><string>App</string></dict></plist>\n').format, 'stringsdict');
  });

  it('refuses malformed XML, entity declarations and deep nesting, naming the line', () => {
    const refused = (content: string, code: string, pattern: RegExp) =>
      assert.throws(
        () => getAdapter('stringsdict').extract(content),
        (error: unknown) => error instanceof ServiceError && error.code === code && pattern.test(error.message),
        content.slice(0, 80),
      );
    refused('<plist version="1.0">\n<dict>\n<key>a</key>\n<dict>\n</plist>\n', 'invalid_request', /line \d/);
    refused('<!DOCTYPE plist [\n<!ENTITY a "aaaaaaaaaa">\n<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">\n]>\n<plist><dict><key>k</key><string>&b;</string></dict></plist>', 'invalid_request', /line 1: a DOCTYPE with declarations/);
    refused('<plist><dict><key>k</key><string>&nbsp;</string></dict></plist>', 'invalid_request', /&nbsp;/);
    refused(`<plist>${'<dict><key>k</key>'.repeat(5000)}${'</dict>'.repeat(5000)}</plist>`, 'document_too_complex', /nesting/);
    refused('<dict></dict>', 'invalid_request', /<plist>/);
  });
});

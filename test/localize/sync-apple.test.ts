/**
 * `translate-service sync` and `translate` on Apple files (issue 34; CONTRACT §6): targets
 * in `.lproj` folders with Apple's names (`pt-BR.lproj`, `zh-Hant.lproj` for the API's
 * `zh-TW`), a UTF-16 `.strings` file written back in UTF-16 with its byte-order mark, and a
 * String Catalog updated in place for every target in one run: sent once for all the
 * targets, every target merged into the one file in Xcode's layout, other languages and
 * hand edits kept, and afterwards only new entries sent. The built CLI against a real
 * server (pseudo engine) behind a counting proxy.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { writeXcodeJson, type XcodeValue } from '../../src/formats/index.js';
import { runCli, type ServedApi } from './served-api.js';
import { startSyncProject, type SyncProject } from './sync-project.js';

const utf16 = (text: string): Buffer => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);

const STRINGS = '/* The button that stores the document */\n"doc.save" = "Save";\n"doc.open" = "Open %@";\n';
const STRINGSDICT =
  '<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict>\n\t<key>files</key>\n\t<dict>\n\t\t<key>NSStringLocalizedFormatKey</key>\n\t\t<string>%#@n@</string>\n\t\t<key>n</key>\n\t\t<dict>\n\t\t\t<key>NSStringFormatSpecTypeKey</key>\n\t\t\t<string>NSStringPluralRuleType</string>\n\t\t\t<key>NSStringFormatValueTypeKey</key>\n\t\t\t<string>d</string>\n\t\t\t<key>one</key>\n\t\t\t<string>%d file</string>\n\t\t\t<key>other</key>\n\t\t\t<string>%d files</string>\n\t\t</dict>\n\t</dict>\n</dict>\n</plist>\n';

const catalog = (strings: Record<string, XcodeValue>): string => `${writeXcodeJson({ sourceLanguage: 'en', strings, version: '1.0' }, 0)}\n`;
const unit = (value: string, state = 'translated') => ({ stringUnit: { state, value } });
const CATALOG = catalog({
  Cancel: {},
  'Open %@': { comment: 'File menu item', localizations: { de: unit('%@ öffnen') } },
  'settings.title': { localizations: { en: unit('Settings') } },
  URL: { shouldTranslate: false },
});

const CONFIG = {
  source: 'en',
  targets: ['pt-BR', 'zh-TW', 'fr'],
  files: ['ios/{locale}.lproj/Localizable.strings', 'ios/{locale}.lproj/Localizable.stringsdict', 'ios/Localizable.xcstrings'],
};

type Catalog = { strings: Record<string, { localizations?: Record<string, { stringUnit: { state: string; value: string } }> }> };

describe('sync and translate with Apple files (sqlite)', () => {
  let project: SyncProject;
  let api: ServedApi;
  let repo: string;
  let env: Record<string, string>;
  const write = (path: string, content: string | Buffer) => project.write(path, content);
  const read = (path: string) => project.file(path);
  const catalogRequests = (from: number) => api.requests.slice(from).filter((r) => r.method === 'POST' && r.body.includes('sourceLanguage'));

  before(async () => {
    project = await startSyncProject('apple', CONFIG, { 'ios/en.lproj/Localizable.strings': utf16(STRINGS), 'ios/en.lproj/Localizable.stringsdict': STRINGSDICT, 'ios/Localizable.xcstrings': CATALOG });
    ({ api, repo, env } = project);
  });
  after(() => project?.stop());

  it('writes .lproj folders with Apple\'s names, a UTF-16 file in UTF-16, and exits 0', async () => {
    const from = api.requests.length;
    const run = await runCli(['sync'], { cwd: repo, env });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    for (const folder of ['pt-BR', 'zh-Hant', 'fr']) {
      for (const name of ['Localizable.strings', 'Localizable.stringsdict']) assert.ok(existsSync(join(repo, `ios/${folder}.lproj/${name}`)), `${folder}.lproj/${name}`);
    }
    assert.ok(!existsSync(join(repo, 'ios/zh-TW.lproj')));
    const bytes = readFileSync(join(repo, 'ios/fr.lproj/Localizable.strings'));
    assert.deepEqual([...bytes.subarray(0, 2)], [0xff, 0xfe], 'the byte-order mark is kept');
    const text = bytes.subarray(2).toString('utf16le');
    assert.equal(text, '/* The button that stores the document */\n"doc.save" = "Šáṽé";\n"doc.open" = "Öṗéñ %@";\n');
    assert.match(read('ios/zh-Hant.lproj/Localizable.stringsdict'), /<key>other<\/key>/);
    assert.equal(catalogRequests(from).length, 1, 'the catalog is sent once for every target');
  });

  it('merges every target into the one catalog in Xcode\'s layout, keeping other languages', () => {
    const text = read('ios/Localizable.xcstrings');
    assert.equal(`${writeXcodeJson(JSON.parse(text) as XcodeValue, 0)}\n`, text);
    const strings = (JSON.parse(text) as Catalog).strings;
    assert.deepEqual(Object.keys(strings['Open %@']!.localizations!), ['de', 'fr', 'pt-BR', 'zh-Hant']);
    assert.equal(strings['Open %@']!.localizations!.de!.stringUnit.value, '%@ öffnen');
    assert.deepEqual(strings.Cancel!.localizations!.fr, unit('Çáñçéļ'));
    assert.deepEqual(strings['settings.title']!.localizations!['pt-BR'], unit('Šéţţíñĝš'));
    assert.equal(strings.URL!.localizations, undefined);
  });

  it('keeps a hand edit and sends nothing when nothing changed; then sends only a new entry', async () => {
    const path = 'ios/Localizable.xcstrings';
    const edited = JSON.parse(read(path)) as Catalog;
    edited.strings.Cancel!.localizations!.fr = unit('Annuler');
    write(path, `${writeXcodeJson(edited as unknown as XcodeValue, 0)}\n`);
    let from = api.requests.length;
    const quiet = await runCli(['sync'], { cwd: repo, env });
    assert.equal(quiet.code, 0, quiet.stdout + quiet.stderr);
    assert.equal(api.requests.slice(from).filter((r) => r.method === 'POST').length, 0);
    assert.deepEqual((JSON.parse(read(path)) as Catalog).strings.Cancel!.localizations!.fr, unit('Annuler'));

    const grown = JSON.parse(read(path)) as Catalog & { strings: Record<string, XcodeValue> };
    (grown.strings as Record<string, XcodeValue>)['New entry'] = {};
    write(path, `${writeXcodeJson(grown as unknown as XcodeValue, 0)}\n`);
    from = api.requests.length;
    const run = await runCli(['sync'], { cwd: repo, env });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const sent = catalogRequests(from);
    assert.equal(sent.length, 1);
    assert.ok(sent[0]!.body.includes('New entry') && !sent[0]!.body.includes('settings.title'), 'only the new entry travels');
    const after = (JSON.parse(read(path)) as Catalog).strings;
    assert.deepEqual(after['New entry']!.localizations!['zh-Hant'], unit('Ñéŵ éñţŕý'));
    assert.deepEqual(after.Cancel!.localizations!.fr, unit('Annuler'), 'the hand edit stays');
  });

  it('translate writes a UTF-16 file back in UTF-16, byte for byte outside the values', async () => {
    write('One.strings', utf16('"a" = "Hello";\n'));
    const run = await runCli(['translate', 'One.strings', '--to', 'de', '--out', 'out'], { cwd: repo, env });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.deepEqual(readFileSync(join(repo, 'out/de/One.strings')), utf16('"a" = "Ĥéļļö";\n'));
  });
});

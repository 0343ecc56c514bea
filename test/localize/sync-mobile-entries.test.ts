/**
 * `sync` on Android, `.strings` and `.stringsdict` files sends only new and changed
 * entries and merges the answer into the existing target (decisions 0077, 0099): the
 * built CLI against a real server (pseudo engine). The exact request contents are checked
 * (only the changed resources, the rest of the file cut out), and the targets before and
 * after: a hand edit stays, a changed resource is replaced whole (a `<plurals>` with all
 * its quantities, a `.stringsdict` entry with its whole dict), a new one comes in after
 * the one before it, a removed one goes. aapt compiles the Android target and plistlib
 * reads the `.stringsdict` one.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { aaptValues, quantities } from '../formats/android-judges.js';
import { plistlibRead, toolkitStrings } from '../formats/apple-judges.js';
import { mergeEntries, partialDocument, readEntryFile } from '../../src/localize/entry-files.js';
import { unmark } from './served-api.js';
import { startSyncProject, type SyncProject } from './sync-project.js';

const ANDROID_PATH = 'app/src/main/res/values/strings.xml';
const RU_ANDROID = 'app/src/main/res/values-ru/strings.xml';
const resources = (...lines: string[]): string => `<?xml version="1.0" encoding="utf-8"?>\n<resources>\n${lines.join('')}</resources>\n`;
const ANDROID = {
  appName: '    <string name="app_name" translatable="false">Acme</string>\n',
  pay: '    <!-- The checkout button -->\n    <string name="pay">Pay now</string>\n',
  cancel: '    <string name="cancel">Cancel the order</string>\n',
  planets: '    <string-array name="planets">\n        <item>Mercury</item>\n        <item>Venus</item>\n    </string-array>\n',
  files: '    <plurals name="files">\n        <item quantity="one">%d file</item>\n        <item quantity="other">%d files</item>\n    </plurals>\n',
  old: '    <string name="old">Old feature</string>\n',
  help: '    <string name="help">Open the help</string>\n',
};

const STRINGS_PATH = 'ios/en.lproj/Localizable.strings';
const RU_STRINGS = 'ios/ru.lproj/Localizable.strings';
const STRINGS = '/* The button that stores the document */\n"doc.save" = "Save the document";\n"doc.open" = "Open %@";\n"doc.close" = "Close the window";\n';

const DICT_PATH = 'ios/en.lproj/Localizable.stringsdict';
const RU_DICT = 'ios/ru.lproj/Localizable.stringsdict';
const pluralEntry = (key: string, one: string, other: string): string =>
  `\t<key>${key}</key>\n\t<dict>\n\t\t<key>NSStringLocalizedFormatKey</key>\n\t\t<string>%#@n@</string>\n\t\t<key>n</key>\n\t\t<dict>\n\t\t\t<key>NSStringFormatSpecTypeKey</key>\n\t\t\t<string>NSStringPluralRuleType</string>\n\t\t\t<key>NSStringFormatValueTypeKey</key>\n\t\t\t<string>d</string>\n\t\t\t<key>one</key>\n\t\t\t<string>${one}</string>\n\t\t\t<key>other</key>\n\t\t\t<string>${other}</string>\n\t\t</dict>\n\t</dict>\n`;
const plist = (...entries: string[]): string => `<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict>\n${entries.join('')}</dict>\n</plist>\n`;

type Forms = Record<string, { n: Record<string, string> }>;

describe('sync sends only new and changed Android and Apple entries and merges them (sqlite)', () => {
  let project: SyncProject;

  before(async () => {
    project = await startSyncProject(
      'sync-mobile-entries',
      { source: 'en', targets: ['ru'], files: ['app/src/main/res/values-{locale}/strings.xml', 'ios/{locale}.lproj/Localizable.strings', 'ios/{locale}.lproj/Localizable.stringsdict'] },
      {
        [ANDROID_PATH]: resources(ANDROID.appName, ANDROID.pay, ANDROID.cancel, ANDROID.planets, ANDROID.files, ANDROID.old),
        [STRINGS_PATH]: STRINGS,
        [DICT_PATH]: plist(pluralEntry('files', '%d file', '%d files'), pluralEntry('folders', '%d folder', '%d folders')),
      },
    );
  });
  after(() => project?.stop());

  it('writes whole targets first, then sends only what changed and merges it, keeping hand edits', async () => {
    const { file, write } = project;
    let from = project.api.requests.length;
    await project.sync();
    assert.deepEqual(project.sentContents(from).sort(), [file(ANDROID_PATH), file(STRINGS_PATH), file(DICT_PATH)].sort(), 'a first sync sends each file whole');
    assert.deepEqual(quantities(file(RU_ANDROID)).files, ['one', 'few', 'many', 'other']);

    // Hand edits in each target; in the sources a changed string, a changed plural, a new string, a removed one.
    const androidEdited = file(RU_ANDROID).replace(/(<string name="cancel">)[^<]*/, '$1Отменить заказ');
    const stringsEdited = file(RU_STRINGS).replace(/("doc\.save" = )"[^"]*"/, '$1"Сохранить документ"');
    const dictEdited = file(RU_DICT).replace(/(<key>one<\/key>\n\t\t\t<string>)[^<]*/, '$1%d файл');
    for (const edited of [androidEdited, stringsEdited, dictEdited]) assert.ok(edited.includes('Отменить') || edited.includes('Сохранить') || edited.includes('файл'));
    write(RU_ANDROID, androidEdited);
    write(RU_STRINGS, stringsEdited);
    write(RU_DICT, dictEdited);
    const android = resources(ANDROID.appName, ANDROID.pay.replace('Pay now', 'Pay today'), ANDROID.cancel, ANDROID.help, ANDROID.planets, ANDROID.files.replace('%d files', '%d documents'));
    write(ANDROID_PATH, android);
    write(STRINGS_PATH, `${STRINGS.replace('"Open %@"', '"Open %@ now"').replace('"doc.close" = "Close the window";\n', '')}"doc.print" = "Print the document";\n`);
    write(DICT_PATH, plist(pluralEntry('files', '%d file', '%d files'), pluralEntry('folders', '%d folder', '%d folders found')));

    from = project.api.requests.length;
    await project.sync();
    assert.deepEqual(
      project.sentContents(from).sort(),
      [
        resources(ANDROID.appName, ANDROID.pay.replace('Pay now', 'Pay today'), ANDROID.help, ANDROID.files.replace('%d files', '%d documents')),
        '"doc.open" = "Open %@ now";\n"doc.print" = "Print the document";\n',
        plist(pluralEntry('folders', '%d folder', '%d folders found')),
      ].sort(),
      'only the changed and new entries are sent, each with its own lines',
    );

    // Android: the hand edit and the untouched array kept byte for byte; pay, help and the plurals from the answer; old gone.
    const ru = file(RU_ANDROID);
    const untouched = (text: string): string => text.replace(/ *<!-- The checkout button -->\n *<string name="pay">[^\n]*\n/, '').replace(/ *<plurals name="files">[\s\S]*?<\/plurals>\n/, '').replace(/ *<string name="(help|old)">[^\n]*\n/g, '');
    assert.equal(untouched(ru), untouched(androidEdited), 'every other line, the hand edit of cancel included, is kept');
    assert.match(ru, /<string name="cancel">Отменить заказ<\/string>\n {4}<string name="help">[^<]+<\/string>\n {4}<string-array name="planets">/, 'help comes in after cancel');
    assert.ok(!ru.includes('name="old"'));
    const values = aaptValues(ru);
    assert.equal(unmark(values.get('pay')!.slice(1, -1)), 'Pay today');
    assert.equal(values.get('cancel'), '"Отменить заказ"');
    assert.deepEqual(quantities(ru).files, ['one', 'few', 'many', 'other']);
    assert.equal(unmark(/<item quantity="many">([^<]*)<\/item>/.exec(ru)![1]!), '%d documents');

    // .strings: the hand edit kept, doc.open replaced in place, doc.print after it, doc.close gone.
    const strings = toolkitStrings(file(RU_STRINGS));
    assert.deepEqual(Object.keys(strings), ['doc.save', 'doc.open', 'doc.print']);
    assert.equal(strings['doc.save'], 'Сохранить документ');
    assert.equal(unmark(strings['doc.open']!), 'Open %@ now');
    assert.ok(file(RU_STRINGS).startsWith('/* The button that stores the document */\n"doc.save" = "Сохранить документ";\n'));

    // .stringsdict: files (with its hand edit) kept byte for byte, folders replaced with the target's forms.
    const dict = file(RU_DICT);
    assert.equal(dict.slice(0, dict.indexOf('\t<key>folders</key>')), dictEdited.slice(0, dictEdited.indexOf('\t<key>folders</key>')));
    const forms = plistlibRead(dict) as Forms;
    assert.equal(forms.files!.n.one, '%d файл');
    assert.deepEqual(Object.keys(forms.folders!.n).filter((k) => !k.startsWith('NS')), ['one', 'few', 'many', 'other']);
    assert.equal(unmark(forms.folders!.n.many!), '%d folders found');

    // Nothing changed: nothing sent, nothing written.
    from = project.api.requests.length;
    await project.sync();
    assert.equal(project.sentContents(from).length, 0);
    assert.equal(file(RU_ANDROID), ru);
  });
});

describe('sync puts entries into a target emptied by hand inside its root (sqlite)', () => {
  let project: SyncProject;

  before(async () => {
    project = await startSyncProject(
      'sync-mobile-emptied',
      { source: 'en', targets: ['ru'], files: ['app/src/main/res/values-{locale}/strings.xml', 'ios/{locale}.lproj/Localizable.stringsdict'] },
      {
        [ANDROID_PATH]: resources(ANDROID.appName, ANDROID.pay, ANDROID.files),
        [DICT_PATH]: plist(pluralEntry('files', '%d file', '%d files')),
      },
    );
  });
  after(() => project?.stop());

  it('writes every entry before </resources> and the root dict\'s </dict>, the rest of the target kept', async () => {
    const { file, write } = project;
    await project.sync();
    // Emptied by hand, each in its own layout: a comment of the translator's, the root on one line.
    const emptyAndroid = '<?xml version="1.0" encoding="utf-8"?>\n<!-- Translated by hand -->\n<resources></resources>\n';
    const emptyDict = '<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict>\n</dict>\n</plist>\n';
    write(RU_ANDROID, emptyAndroid);
    write(RU_DICT, emptyDict);
    await project.sync();

    const ru = file(RU_ANDROID);
    assert.ok(ru.startsWith('<?xml version="1.0" encoding="utf-8"?>\n<!-- Translated by hand -->\n<resources>\n'), ru);
    assert.ok(ru.endsWith('</resources>\n'), ru);
    const values = aaptValues(ru);
    assert.equal(unmark(values.get('pay')!.slice(1, -1)), 'Pay now');
    assert.deepEqual(quantities(ru).files, ['one', 'few', 'many', 'other']);

    const dict = file(RU_DICT);
    assert.ok(dict.endsWith('</dict>\n</plist>\n'), dict);
    const forms = plistlibRead(dict) as Forms;
    assert.deepEqual(Object.keys(forms.files!.n).filter((k) => !k.startsWith('NS')), ['one', 'few', 'many', 'other']);
  });

  it('writes a target whose root is one empty tag (<resources/>, <dict/>) whole, never after its root', async () => {
    const { file, write } = project;
    write(RU_ANDROID, '<?xml version="1.0" encoding="utf-8"?>\n<resources/>\n');
    write(RU_DICT, '<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict/>\n</plist>\n');
    await project.sync();

    const ru = file(RU_ANDROID);
    assert.ok(ru.endsWith('</resources>\n'), ru);
    assert.equal(unmark(aaptValues(ru).get('pay')!.slice(1, -1)), 'Pay now');
    assert.deepEqual(quantities(ru).files, ['one', 'few', 'many', 'other']);
    const forms = plistlibRead(file(RU_DICT)) as Forms;
    assert.deepEqual(Object.keys(forms.files!.n).filter((k) => !k.startsWith('NS')), ['one', 'few', 'many', 'other']);
  });
});

describe('the lines of an Android resource, as sync cuts and merges them', () => {
  it('never takes the root element along, even with the whole file on one line', () => {
    const layered = '<?xml version="1.0"?>\n<resources>\n    <!-- A fruit -->\n    <string name="a">Apple</string>\n\n    <string name="b">Banana split</string>\n</resources>\n';
    const entries = readEntryFile('android', layered)!;
    assert.equal(partialDocument(layered, entries, new Set(['b'])), '<?xml version="1.0"?>\n<resources>\n\n    <string name="b">Banana split</string>\n</resources>\n');
    assert.equal(partialDocument(layered, entries, new Set(['a'])), '<?xml version="1.0"?>\n<resources>\n    <!-- A fruit -->\n    <string name="a">Apple</string>\n</resources>\n');
    const oneLine = '<resources><string name="a">Apple</string><string name="b">Banana split</string></resources>\n';
    const flat = readEntryFile('android', oneLine)!;
    assert.equal(partialDocument(oneLine, flat, new Set(['b'])), '<resources><string name="b">Banana split</string></resources>\n');
    const answer = '<resources><string name="b">Banane</string></resources>\n';
    const merged = mergeEntries(oneLine, flat, answer, readEntryFile('android', answer)!, ['a', 'b'], ['b'], []);
    assert.equal(merged, '<resources><string name="a">Apple</string><string name="b">Banane</string></resources>\n');
  });
});

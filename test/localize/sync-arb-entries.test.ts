/**
 * `sync` on Flutter ARB files sends only new and changed messages and merges the answer
 * into the existing target member by member (decision 0100): the built CLI against a
 * real server (pseudo engine). An entry is a message with its `@key` metadata: the
 * request holds only the changed and new ones (valid JSON, the source's layout), and the
 * target after the merge is valid JSON with the source's key order, a hand edit kept, the
 * untouched bytes kept, a removed message gone with its `@key`, and its own `@@locale`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { mergeEntries, partialDocument, readEntryFile } from '../../src/localize/entry-files.js';
import { unmark } from './served-api.js';
import { startSyncProject, type SyncProject } from './sync-project.js';

const SOURCE = 'lib/l10n/app_en.arb';
const RU = 'lib/l10n/app_ru.arb';
const arb = (...members: string[]): string => `{\n${members.join(',\n')}\n}\n`;
const M = {
  locale: '  "@@locale": "en"',
  pay: '  "pay": "Pay now",\n  "@pay": {\n    "description": "The checkout button"\n  }',
  cancel: '  "cancel": "Cancel the order"',
  files: '  "files": "{count, plural, one{{count} file} other{{count} files}}",\n  "@files": {\n    "placeholders": {\n      "count": {\n        "type": "int"\n      }\n    }\n  }',
  old: '  "old": "Old feature",\n  "@old": {\n    "description": "Gone soon"\n  }',
  help: '  "help": "Open the help",\n  "@help": {\n    "description": "The help menu item"\n  }',
  first: '  "first": "Welcome back"',
};

type Arb = Record<string, unknown>;
const parsed = (text: string): Arb => JSON.parse(text) as Arb;

describe('sync sends only new and changed ARB messages and merges them (sqlite)', () => {
  let project: SyncProject;

  before(async () => {
    project = await startSyncProject('sync-arb-entries', { source: 'en', targets: ['ru'], files: ['lib/l10n/app_{locale}.arb'] }, { [SOURCE]: arb(M.locale, M.pay, M.cancel, M.files, M.old) });
  });
  after(() => project?.stop());

  it('sends the changed and new messages with their @key, merges them in the source\'s order and keeps the rest', async () => {
    const { file, write } = project;
    let from = project.api.requests.length;
    await project.sync();
    assert.deepEqual(project.sentContents(from), [file(SOURCE)], 'a first sync sends the file whole');
    assert.equal(parsed(file(RU))['@@locale'], 'ru');

    // A hand edit in the target; in the source a changed message, a new one first and one in the middle, the last one removed.
    const edited = file(RU).replace(/("cancel": )"[^"]*"/, '$1"Отменить заказ"');
    assert.notEqual(edited, file(RU));
    write(RU, edited);
    write(SOURCE, arb(M.locale, M.first, M.pay.replace('Pay now', 'Pay today'), M.cancel, M.help, M.files));

    from = project.api.requests.length;
    await project.sync();
    assert.deepEqual(project.sentContents(from), [arb(M.locale, M.first, M.pay.replace('Pay now', 'Pay today'), M.help)], 'only the changed and new messages, each with its @key, valid JSON');

    const ru = file(RU);
    const target = parsed(ru);
    assert.deepEqual(Object.keys(target), ['@@locale', 'first', 'pay', '@pay', 'cancel', 'help', '@help', 'files', '@files'], 'the source\'s order; old gone with its @old');
    assert.equal(target['@@locale'], 'ru');
    assert.equal(target.cancel, 'Отменить заказ');
    assert.equal(unmark(target.pay as string), 'Pay today');
    assert.equal(unmark(target.help as string), 'Open the help');
    assert.equal(unmark(target.first as string), 'Welcome back');
    assert.deepEqual(target['@help'], { description: 'The help menu item' });
    // The untouched members keep their bytes, the layout its indent, and the file its final line break.
    const filesMember = edited.slice(edited.indexOf('\n  "files": '), edited.indexOf(',\n  "old": '));
    assert.ok(ru.includes(`"cancel": "Отменить заказ",\n  "help": `), ru);
    assert.ok(ru.endsWith(`${filesMember}\n}\n`), ru);
    assert.ok(ru.startsWith('{\n  "@@locale": "ru",\n  "first": '), ru);

    // Nothing changed: nothing sent, nothing written.
    from = project.api.requests.length;
    await project.sync();
    assert.equal(project.sentContents(from).length, 0);
    assert.equal(file(RU), ru);
  });

  it('puts messages into a target emptied by hand inside its braces, and cuts the last member\'s comma when it goes', async () => {
    const { file, write } = project;
    write(RU, '{}');
    await project.sync();
    const refilled = parsed(file(RU));
    assert.deepEqual(Object.keys(refilled), ['first', 'pay', '@pay', 'cancel', 'help', '@help', 'files', '@files']);
    assert.equal(unmark(refilled.cancel as string), 'Cancel the order');

    // The source's last message removed: the member before it ends the object, without its comma.
    write(SOURCE, arb(M.locale, M.first, M.pay.replace('Pay now', 'Pay today'), M.cancel, M.help));
    await project.sync();
    const ru = file(RU);
    assert.deepEqual(Object.keys(parsed(ru)), ['first', 'pay', '@pay', 'cancel', 'help', '@help']);
  });
});

describe('ARB members as sync cuts and merges them', () => {
  // Tabs, CRLF line ends and a blank line between groups: the file's own layout.
  const text = '{\r\n\t"@@locale": "en",\r\n\r\n\t"a": "Apple",\r\n\t"@a": {"description": "A fruit"},\r\n\r\n\t"b": "Banana split",\r\n\t"c": "Cherry"\r\n}';

  it('cuts unchanged entries with their @key and keeps the JSON valid and the rest byte for byte', () => {
    const entries = readEntryFile('arb', text)!;
    assert.equal(partialDocument(text, entries, new Set(['a', 'b', 'c'])), text);
    assert.equal(partialDocument(text, entries, new Set(['b'])), '{\r\n\t"@@locale": "en",\r\n\r\n\t"b": "Banana split"\r\n}');
    assert.equal(partialDocument(text, entries, new Set(['a'])), '{\r\n\t"@@locale": "en",\r\n\r\n\t"a": "Apple",\r\n\t"@a": {"description": "A fruit"}\r\n}');
    assert.equal(partialDocument(text, entries, new Set()), '{\r\n\t"@@locale": "en"\r\n}');
  });

  it('puts a new entry between the target\'s, with the file\'s separator', () => {
    const target = '{\r\n\t"@@locale": "fr",\r\n\r\n\t"b": "Banane",\r\n\t"c": "Cerise"\r\n}';
    const answer = '{\r\n\t"@@locale": "fr",\r\n\r\n\t"a": "Pomme",\r\n\t"@a": {"description": "A fruit"}\r\n}';
    const merged = mergeEntries(target, readEntryFile('arb', target)!, answer, readEntryFile('arb', answer)!, ['a', 'b', 'c'], ['a'], []);
    assert.equal(merged, '{\r\n\t"@@locale": "fr",\r\n\r\n\t"a": "Pomme",\r\n\t"@a": {"description": "A fruit"},\r\n\r\n\t"b": "Banane",\r\n\t"c": "Cerise"\r\n}');
    assert.deepEqual(Object.keys(JSON.parse(merged) as object), ['@@locale', 'a', '@a', 'b', 'c']);
  });
});

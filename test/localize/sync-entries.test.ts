/**
 * `sync` on gettext and properties files sends only new and changed entries and merges
 * the answer into the existing target (decision 0077): the built CLI against a real
 * server (pseudo engine). The exact request contents are checked (only the changed
 * entries, the rest of the file cut out), and the target files byte for byte before and
 * after: a hand edit, comments and layout stay, a changed entry's translation is
 * replaced in place, a new entry comes in after the entry before it, a removed one goes.
 * msgfmt -c accepts every .po written.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { unmark } from './served-api.js';
import { startSyncProject, type SyncProject } from './sync-project.js';

const HEADER = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: en\\n"\n';
const PO = {
  pay: '#. The checkout button\nmsgid "Pay"\nmsgstr ""\n',
  cancel: 'msgid "Cancel"\nmsgstr ""\n',
  files: '#, c-format\nmsgid "%d file"\nmsgid_plural "%d files"\nmsgstr[0] ""\nmsgstr[1] ""\n',
  old: '# translator comment\nmsgid "Old feature"\nmsgstr ""\n',
};
const PROPERTIES = '# The main button\ncheckout.pay=Pay\n\n# Shown when nothing is found\nsearch.empty=Nothing found\ncart.title=Your cart\n';

describe('sync sends only new and changed locale entries and merges them (sqlite)', () => {
  let project: SyncProject;
  const write = (path: string, text: string) => project.write(path, text);
  const file = (path: string) => project.file(path);
  const sentContents = (from: number): string[] => project.sentContents(from);
  const sync = async () => {
    await project.sync();
  };

  before(async () => {
    project = await startSyncProject(
      'sync-entries',
      { source: 'en', targets: ['ru'], files: ['po/{locale}.po', 'messages_{locale}.properties'] },
      { 'po/en.po': [HEADER, PO.pay, PO.cancel, PO.files, PO.old].join('\n'), 'messages_en.properties': PROPERTIES },
    );
  });
  after(() => project?.stop());

  it('writes whole targets first, then sends only what changed and merges it, keeping a hand edit', async () => {
    let from = project.api.requests.length;
    await sync();
    assert.deepEqual(sentContents(from).sort(), [file('messages_en.properties'), file('po/en.po')].sort(), 'a first sync sends each file whole');
    execFileSync('msgfmt', ['-c', '-o', '/dev/null', join(project.repo, 'po/ru.po')]);
    const ru = file('po/ru.po');
    const blocks = ru.split('\n\n');
    assert.equal(blocks.length, 5);
    assert.match(blocks[2]!, /^msgid "Cancel"\nmsgstr "/);

    // A hand edit of Cancel, a changed Pay, a new Help at the end, Old removed.
    const handEdited = ru.replace(/(msgid "Cancel"\nmsgstr )"[^"]*"/, '$1"Отмена"');
    assert.notEqual(handEdited, ru);
    write('po/ru.po', handEdited);
    const help = '#. On the menu\nmsgid "Help"\nmsgstr ""\n';
    write('po/en.po', [HEADER, PO.pay.replace('"Pay"', '"Pay now"'), PO.cancel, PO.files, help].join('\n'));
    const propertiesBefore = file('messages_ru.properties');
    write('messages_ru.properties', propertiesBefore.replace(/^cart\.title=.*$/m, 'cart.title=Ваша корзина'));
    write('messages_en.properties', PROPERTIES.replace('search.empty=Nothing found', 'search.empty=No results'));

    from = project.api.requests.length;
    await sync();
    assert.deepEqual(
      sentContents(from).sort(),
      [
        [HEADER, PO.pay.replace('"Pay"', '"Pay now"'), help].join('\n'),
        // (an entry's blank lines before it go with it)
        '\n# Shown when nothing is found\nsearch.empty=No results\n',
      ].sort(),
      'only the changed and new entries are sent',
    );

    const after = file('po/ru.po');
    execFileSync('msgfmt', ['-c', '-o', '/dev/null', join(project.repo, 'po/ru.po')]);
    const old = handEdited.split('\n\n');
    const now = after.split('\n\n');
    assert.equal(now[0], old[0], 'the header is kept byte for byte');
    assert.equal(now[1]!.replace(/msgstr "[^"]*"/, ''), old[1]!.replace('"Pay"', '"Pay now"').replace(/msgstr "[^"]*"/, ''), 'Pay: only its msgid (source) and msgstr differ');
    assert.equal(unmark(/msgstr "([^"]*)"/.exec(now[1]!)![1]!), 'Pay now');
    assert.equal(now[2], old[2], 'the hand edit of Cancel is kept');
    assert.equal(now[3], old[3], 'the unchanged plural entry is kept');
    assert.equal(now.length, 5, 'Old is gone, Help is in');
    assert.match(now[4]!, /^#\. On the menu\nmsgid "Help"\nmsgstr "[^"]+"\n$/);
    assert.equal(unmark(/msgstr "([^"]*)"/.exec(now[4]!)![1]!), 'Help');

    const properties = file('messages_ru.properties');
    const lines = properties.split('\n');
    assert.deepEqual(
      lines.filter((line) => !line.startsWith('search.empty=')),
      propertiesBefore.replace(/^cart\.title=.*$/m, 'cart.title=Ваша корзина').split('\n').filter((line) => !line.startsWith('search.empty=')),
      'every other line, the hand edit of cart.title included, is kept',
    );
    const escaped = lines.find((line) => line.startsWith('search.empty='))!.slice('search.empty='.length);
    assert.equal(unmark(escaped.replace(/\\u([0-9a-fA-F]{4})/g, (_all, hex: string) => String.fromCharCode(parseInt(hex, 16)))), 'No results');

    // Nothing changed: nothing sent, nothing written.
    from = project.api.requests.length;
    await sync();
    assert.equal(sentContents(from).length, 0);
    assert.equal(file('po/ru.po'), after);
  });
});

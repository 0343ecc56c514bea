/**
 * `sync` on YAML and XLIFF files sends only new and changed entries and merges the answer
 * into the existing target (decisions 0077, 0103): the built CLI against a real server
 * (pseudo engine). The requests are checked (only the changed units and entries, with
 * the YAML mappings they sit in), and the targets before and after: every answer parses
 * (the `yaml` package, YAML 1.2; Python's expat for XML), a hand edit, comments and
 * layout stay, a changed entry's translation is replaced in place, a new entry goes
 * into its mapping (with the mappings the target lacks), a removed one goes, and an
 * XLIFF unit whose target file lost its `<target>` gets one.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { unmark } from './served-api.js';
import { startSyncProject, type SyncProject } from './sync-project.js';

const YAML = `# Storefront
en:
  checkout:
    # The main button
    pay_button: Pay
    cancel: Cancel
  cart:
    items:
      one: "%{count} item"
      other: "%{count} items"
    body: |
      First line.
      Second line.
    url: https://example.com/cart
  old: Old feature
`;

const unit = (id: string, source: string, extra = ''): string =>
  `      <trans-unit id="${id}" datatype="html">\n        <source>${source}</source>\n${extra}      </trans-unit>\n`;
const xliff = (units: string): string =>
  `<?xml version="1.0" encoding="UTF-8" ?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">\n  <file source-language="en" datatype="plaintext" original="ng2.template">\n    <body>\n${units}    </body>\n  </file>\n</xliff>\n`;
const UNITS = {
  pay: unit('pay', 'Pay', '        <note priority="1" from="description">The checkout button</note>\n'),
  cancel: unit('cancel', 'Cancel'),
  greeting: unit('greeting', 'Hello <x id="INTERPOLATION" equiv-text="{{ name }}"/>'),
  old: unit('old', 'Old feature'),
};

/** The units as an XML parser (Python's expat) reads them: id -> [source, target]. */
function parsedUnits(xml: string): Record<string, [string, string | null]> {
  const program = `
import sys, json, xml.etree.ElementTree as E
root = E.fromstring(sys.stdin.read())
out = {}
for unit in root.iter():
    if unit.tag.split('}')[-1] in ('trans-unit', 'unit'):
        src = next(e for e in unit.iter() if e.tag.split('}')[-1] == 'source')
        tgt = next((e for e in unit.iter() if e.tag.split('}')[-1] == 'target'), None)
        out[unit.get('id')] = [''.join(src.itertext()), None if tgt is None else ''.join(tgt.itertext())]
print(json.dumps(out))
`;
  return JSON.parse(execFileSync('python3', ['-c', program], { input: xml, encoding: 'utf8' })) as Record<string, [string, string | null]>;
}

/**
 * The file as Debian's translate-toolkit reads it, a second judge: YAML (Ruby flavour,
 * root key dropped) as id -> its strings (a plural's forms), XLIFF as id -> [source, target].
 */
function toolkitUnits(kind: 'yaml' | 'xliff', text: string): Record<string, unknown> {
  const program = `
import sys, json
from translate.storage import yaml as y, xliff as x
data = sys.stdin.buffer.read()
if sys.argv[1] == 'yaml':
    store = y.RubyYAMLFile()
    store.parse(data)
    print(json.dumps({u.getid(): [str(s) for s in getattr(u.source, 'strings', [u.source])] for u in store.units}))
else:
    store = x.xlifffile.parsestring(data)  # (an id is the file's original, \\x04, the unit's id)
    print(json.dumps({u.getid().split('\\x04')[-1]: [str(u.source), None if u.target is None else str(u.target)] for u in store.units}))
`;
  // (Debian's python3, where translate-toolkit is installed; a pyenv shim may come first on PATH.)
  return JSON.parse(execFileSync('/usr/bin/python3', ['-c', program, kind], { input: text, encoding: 'utf8' })) as Record<string, unknown>;
}

describe('sync sends only new and changed YAML and XLIFF entries and merges them (sqlite)', () => {
  let project: SyncProject;
  const write = (path: string, text: string) => project.write(path, text);
  const file = (path: string) => project.file(path);
  const sentContents = (from: number): string[] => project.sentContents(from);
  const sync = async () => {
    await project.sync();
  };
  const requestCount = () => project.api.requests.length;

  before(async () => {
    project = await startSyncProject('sync-yaml-xliff', { source: 'en', targets: ['ru'], files: ['config/locales/{locale}.yml', 'messages.{locale}.xlf'] }, {
      'config/locales/en.yml': YAML,
      'messages.en.xlf': xliff(UNITS.pay + UNITS.cancel + UNITS.greeting + UNITS.old),
    });
  });
  after(() => project?.stop());

  it('YAML: writes the whole target first, then sends only what changed and merges it into its mappings', async () => {
    let from = requestCount();
    await sync();
    assert.ok(sentContents(from).includes(YAML), 'a first sync sends the file whole');
    const ru = file('config/locales/ru.yml');
    const first = parse(ru) as { ru: { checkout: Record<string, string>; cart: { items: Record<string, string> } } };
    assert.deepEqual(Object.keys(first.ru.cart.items), ['one', 'few', 'many', 'other']);

    // A hand edit of cancel; pay_button changed; help new in checkout; a new account
    // mapping the target lacks; a changed plural; old removed.
    const handEdited = ru.replace(/^(    cancel: ).*$/m, '$1Отмена');
    assert.notEqual(handEdited, ru);
    write('config/locales/ru.yml', handEdited);
    const changed = YAML.replace('pay_button: Pay', 'pay_button: Pay now')
      .replace('    cancel: Cancel\n', '    cancel: Cancel\n    help: Help\n')
      .replace('  cart:\n', '  # Signing in\n  account:\n    sign_in: Sign in\n    sign_out: Sign out\n  cart:\n')
      .replace('%{count} items', '%{count} articles')
      .replace('  old: Old feature\n', '');
    write('config/locales/en.yml', changed);

    from = requestCount();
    await sync();
    const sent = sentContents(from).filter((content) => content.startsWith('# Storefront'));
    assert.deepEqual(
      sent,
      [
        '# Storefront\nen:\n  checkout:\n    # The main button\n    pay_button: Pay now\n    help: Help\n  # Signing in\n  account:\n    sign_in: Sign in\n    sign_out: Sign out\n  cart:\n    items:\n      one: "%{count} item"\n      other: "%{count} articles"\n    url: https://example.com/cart\n',
      ],
      'only the changed and new entries are sent, in their mappings',
    );

    const now = file('config/locales/ru.yml');
    const read = parse(now) as { ru: { checkout: Record<string, string>; account: Record<string, string>; cart: { items: Record<string, string>; body: string; url: string } } };
    assert.deepEqual(Object.keys(read.ru), ['checkout', 'account', 'cart']);
    assert.deepEqual(Object.keys(read.ru.checkout), ['pay_button', 'cancel', 'help']);
    assert.equal(read.ru.checkout.cancel, 'Отмена', 'the hand edit is kept');
    assert.equal(unmark(read.ru.checkout.pay_button!), 'Pay now');
    assert.equal(unmark(read.ru.checkout.help!), 'Help');
    assert.deepEqual(Object.fromEntries(Object.entries(read.ru.account).map(([k, v]) => [k, unmark(v)])), { sign_in: 'Sign in', sign_out: 'Sign out' });
    assert.deepEqual(Object.keys(read.ru.cart.items), ['one', 'few', 'many', 'other']);
    assert.match(unmark(read.ru.cart.items.other!), /articles/);
    assert.equal(read.ru.cart.url, 'https://example.com/cart');
    assert.equal(unmark(read.ru.cart.body), 'First line.\nSecond line.\n');
    // Every line of the target that is not a changed or new entry is as it was.
    const kept = handEdited.split('\n').filter((line) => !/pay_button|other:|few:|many:|one:|old:/.test(line));
    const nowLines = now.split('\n');
    for (const line of kept) assert.ok(nowLines.includes(line), `kept: ${JSON.stringify(line)}\n${now}`);
    const toolkit = toolkitUnits('yaml', now) as Record<string, string[]>;
    assert.deepEqual(Object.keys(toolkit), ['checkout->pay_button', 'checkout->cancel', 'checkout->help', 'account->sign_in', 'account->sign_out', 'cart->items', 'cart->body', 'cart->url']);
    assert.deepEqual(toolkit['checkout->cancel'], ['Отмена']);
    assert.equal(toolkit['cart->items']!.length, 4);
    assert.match(now, /^# Storefront\nru:\n  checkout:\n    # The main button\n    pay_button: /);
    assert.match(now, /\n  # Signing in\n  account:\n    sign_in: .*\n    sign_out: .*\n  cart:\n/);

    // Nothing changed: nothing sent, nothing written.
    from = requestCount();
    await sync();
    assert.equal(sentContents(from).length, 0);
    assert.equal(file('config/locales/ru.yml'), now);
  });

  it('XLIFF: merges changed and new units, keeps a hand edit, and gives a unit that lost its target a new one', async () => {
    const ru = file('messages.ru.xlf');
    assert.equal(Object.values(parsedUnits(ru)).filter(([, target]) => target !== null).length, 4);
    // A hand edit of cancel; greeting's target deleted by hand; pay changed; help new; old removed.
    const handEdited = ru
      .replace(/(<source>Cancel<\/source>\n\s*<target state="translated">)[^<]*/, '$1Отмена')
      .replace(/(<source>Hello [^\n]*<\/source>)\n\s*<target[^\n]*<\/target>/, '$1');
    assert.equal(Object.values(parsedUnits(handEdited)).filter(([, target]) => target === null).length, 1);
    write('messages.ru.xlf', handEdited);
    write('messages.en.xlf', xliff(unit('pay', 'Pay now', '        <note priority="1" from="description">The checkout button</note>\n') + UNITS.cancel + unit('help', 'Help') + UNITS.greeting));

    const from = requestCount();
    await sync();
    const sent = sentContents(from);
    assert.equal(sent.length, 1, sent.join('\n----\n'));
    assert.deepEqual(Object.keys(parsedUnits(sent[0]!)), ['pay', 'help', 'greeting'], 'only the changed, new and untranslated units are sent');

    const now = file('messages.ru.xlf');
    const units = parsedUnits(now);
    assert.deepEqual(Object.keys(units), ['pay', 'cancel', 'help', 'greeting']);
    assert.equal(units.cancel![1], 'Отмена', 'the hand edit is kept');
    const toolkit = toolkitUnits('xliff', now) as Record<string, [string, string | null]>;
    assert.deepEqual(Object.keys(toolkit), ['pay', 'cancel', 'help', 'greeting']);
    assert.ok(Object.values(toolkit).every(([, target]) => target !== null && target !== ''), JSON.stringify(toolkit));
    assert.deepEqual(units.pay!.map((text) => unmark(text!)), ['Pay now', 'Pay now'], 'a changed source comes in with its translation');
    assert.equal(unmark(units.help![1]!), 'Help');
    assert.equal(unmark(units.greeting![1]!).trim(), 'Hello');
    assert.match(now, /<source>Hello <x id="INTERPOLATION" equiv-text="\{\{ name \}\}"\/><\/source>\n        <target state="translated">[^\n]*<x id="INTERPOLATION" equiv-text="\{\{ name \}\}"\/>[^\n]*<\/target>\n      <\/trans-unit>/);
    assert.ok(now.includes('<file source-language="en" datatype="plaintext" original="ng2.template" target-language="ru">'), now);
    assert.ok(!now.includes('Old feature'));
  });

  it('XLIFF 2.0: sends only the changed unit and merges it', async () => {
    const v20 = (greeting: string) =>
      `<?xml version="1.0" encoding="UTF-8"?>\n<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en">\n  <file id="f1">\n    <unit id="greeting">\n      <notes>\n        <note category="description">Shown on the home page</note>\n      </notes>\n      <segment>\n        <source>${greeting}</source>\n      </segment>\n    </unit>\n    <unit id="bye">\n      <segment>\n        <source>Goodbye</source>\n      </segment>\n    </unit>\n  </file>\n</xliff>\n`;
    write('translate.config.json', JSON.stringify({ source: 'en', targets: ['ru'], files: ['config/locales/{locale}.yml', 'messages.{locale}.xlf', 'i18n/{locale}.xliff', 'lists/{locale}.yml'] }));
    write('i18n/en.xliff', v20('Welcome'));
    await sync();
    const first = file('i18n/ru.xliff');
    assert.match(first, /srcLang="en" trgLang="ru"/);
    const from = requestCount();
    write('i18n/en.xliff', v20('Welcome back'));
    await sync();
    const sent = sentContents(from);
    assert.equal(sent.length, 1);
    assert.ok(!sent[0]!.includes('Goodbye') && sent[0]!.includes('Welcome back'), sent[0]);
    const now = file('i18n/ru.xliff');
    // (translate-toolkit reads XLIFF 1.2 only: expat judges 2.0.)
    const units = parsedUnits(now);
    assert.deepEqual(Object.keys(units), ['greeting', 'bye']);
    assert.deepEqual(units.greeting!.map((text) => unmark(text!)), ['Welcome back', 'Welcome back']);
    assert.equal(units.bye![1], parsedUnits(first).bye![1], 'the unchanged unit is kept');
    assert.equal(now.replace(/<source>[^<]*<\/source>\n\s*<target>[^<]*<\/target>/, ''), first.replace(/<source>[^<]*<\/source>\n\s*<target>[^<]*<\/target>/, ''), 'nothing else changed');
  });

  it('XLIFF: adopts a target unit translated by hand for the source as it is, re-sends one whose own source is out of date', async () => {
    write('translate.config.json', JSON.stringify({ source: 'en', targets: ['ru'], files: ['config/locales/{locale}.yml', 'messages.{locale}.xlf', 'i18n/{locale}.xliff', 'lists/{locale}.yml', 'other.{locale}.xlf'] }));
    write('other.en.xlf', xliff(unit('save', 'Save') + unit('open', 'Open the file')));
    // A target made before sync knew the file (no lock entry): open's translation is of an older source.
    write('other.ru.xlf', xliff(unit('save', 'Save', '        <target state="translated">Сохранить</target>\n') + unit('open', 'Open file', '        <target state="translated">Открыть файл</target>\n')));
    const from = requestCount();
    await sync();
    const sent = sentContents(from);
    assert.equal(sent.length, 1, sent.join('\n----\n'));
    assert.deepEqual(Object.keys(parsedUnits(sent[0]!)), ['open'], 'only the unit whose own source is out of date is sent');
    const units = parsedUnits(file('other.ru.xlf'));
    assert.equal(units.save![1], 'Сохранить', 'a translation of the source as it is now is kept');
    assert.deepEqual(units.open!.map((text) => unmark(text!)), ['Open the file', 'Open the file']);
  });

  it('sends a YAML file whose strings are in a list whole: cut out, an item would change its index', async () => {
    const lists = (title: string) => `en:\n  title: ${title}\n  days:\n    - Sunday morning\n    - Monday morning\n`;
    write('lists/en.yml', lists('Days of the week'));
    await sync();
    const from = requestCount();
    write('lists/en.yml', lists('The days of the week'));
    await sync();
    assert.deepEqual(sentContents(from), [lists('The days of the week')]);
    const read = parse(file('lists/ru.yml')) as { ru: { title: string; days: string[] } };
    assert.equal(unmark(read.ru.title), 'The days of the week');
    assert.deepEqual(read.ru.days.map(unmark), ['Sunday morning', 'Monday morning']);
  });
});

/**
 * `translate-service sync` on Android and Flutter projects (docs/contract.md §6): the
 * targets of `res/values/strings.xml` are written to `res/values-{qualifier}/strings.xml`
 * (`values-fr`, `values-pt-rBR`, `values-zh-rTW`), those of `lib/l10n/app_en.arb` to
 * `app_{locale}.arb` with ARB's spelling (`app_pt_BR.arb`, `@@locale: pt_BR`); a second
 * run sends nothing and leaves the files as they are. The built CLI against a real server
 * (pseudo engine).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { androidQualifier, formatFromExtension } from '../../src/localize/file-formats.js';
import { FilePattern } from '../../src/localize/patterns.js';
import { runCli, type ServedApi } from './served-api.js';
import { startSyncProject, type SyncProject } from './sync-project.js';

const FILES: Record<string, string> = {
  'app/src/main/res/values/strings.xml':
    '<?xml version="1.0" encoding="utf-8"?>\n<resources>\n    <string name="app_name" translatable="false">Acme</string>\n    <!-- The checkout button -->\n    <string name="pay">Pay now</string>\n    <plurals name="files">\n        <item quantity="one">%d file</item>\n        <item quantity="other">%d files</item>\n    </plurals>\n</resources>\n',
  'lib/l10n/app_en.arb': '{\n  "@@locale": "en",\n  "pay": "Pay now",\n  "@pay": {\n    "description": "The checkout button"\n  }\n}\n',
};
const CONFIG = {
  source: 'en',
  targets: ['fr', 'pt-BR', 'zh-TW'],
  files: ['app/src/main/res/values-{locale}/strings.xml', 'lib/l10n/app_{locale}.arb'],
};

describe('Android resource qualifiers and ARB names', () => {
  it('spells codes as aapt reads folder names', () => {
    assert.equal(androidQualifier('fr'), 'fr');
    assert.equal(androidQualifier('pt-BR'), 'pt-rBR');
    assert.equal(androidQualifier('zh-TW'), 'zh-rTW');
    assert.equal(androidQualifier('es-419'), 'es-r419');
    assert.equal(androidQualifier('sr-Latn'), 'b+sr+Latn');
    assert.equal(androidQualifier('zh-Hant-TW'), 'b+zh+Hant+TW');
  });

  it('knows a values folder\'s XML and an .arb file by their names, and maps values/ to values-{qualifier}/', () => {
    assert.equal(formatFromExtension('app/src/main/res/values/strings.xml'), 'android');
    assert.equal(formatFromExtension('res/values-{locale}/plurals.xml'), 'android');
    assert.equal(formatFromExtension('lib/l10n/app_en.arb'), 'arb');
    assert.equal(formatFromExtension('pom.xml'), undefined);
    const pattern = new FilePattern('res/values-{locale}/strings.xml');
    assert.ok(pattern.matches('res/values/strings.xml', ''));
    assert.equal(pattern.pathFor('res/values/strings.xml', '', 'b+sr+Latn'), 'res/values-b+sr+Latn/strings.xml');
  });
});

describe('sync with Android and ARB files (sqlite)', () => {
  let project: SyncProject;
  let api: ServedApi;
  let repo: string;
  let env: Record<string, string>;
  const file = (path: string) => project.file(path);

  before(async () => {
    project = await startSyncProject('android-arb', CONFIG, FILES);
    ({ api, repo, env } = project);
  });
  after(() => project?.stop());

  it('writes each target with its platform\'s name, valid, and a second run sends nothing', async () => {
    const run = await runCli(['sync'], { cwd: repo, env });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    for (const qualifier of ['fr', 'pt-rBR', 'zh-rTW']) {
      const path = `app/src/main/res/values-${qualifier}/strings.xml`;
      assert.ok(existsSync(join(repo, path)), `${path} missing`);
      execFileSync('python3', ['-c', 'import sys,xml.etree.ElementTree as E; E.parse(sys.argv[1])', join(repo, path)]);
      assert.ok(!file(path).includes('app_name'), 'translatable="false" is left out');
    }
    assert.deepEqual([...file('app/src/main/res/values-fr/strings.xml').matchAll(/quantity="(\w+)"/g)].map((m) => m[1]), ['one', 'many', 'other']);
    for (const [locale, expected] of [['pt_BR', 'pt_BR'], ['zh_TW', 'zh_TW'], ['fr', 'fr']]) {
      const arb = JSON.parse(file(`lib/l10n/app_${locale}.arb`)) as Record<string, unknown>;
      assert.equal(arb['@@locale'], expected);
      assert.deepEqual(arb['@pay'], { description: 'The checkout button' });
    }
    assert.ok(!existsSync(join(repo, 'app/src/main/res/values-en')), 'the source is not written as a target');
    const written = file('app/src/main/res/values-pt-rBR/strings.xml');
    const posts = api.requests.filter((r) => r.method === 'POST').length;
    const again = await runCli(['sync'], { cwd: repo, env });
    assert.equal(again.code, 0, again.stdout + again.stderr);
    assert.equal(api.requests.filter((r) => r.method === 'POST').length, posts, 'nothing is sent when nothing changed');
    assert.equal(file('app/src/main/res/values-pt-rBR/strings.xml'), written);
  });
});

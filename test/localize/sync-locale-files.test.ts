/**
 * `translate-service sync` on the locale files product text lives in (docs/contract.md
 * §6): each ecosystem's file naming for the targets (`po/pt_BR.po`,
 * `messages_pt_BR.properties`, `config/locales/pt-BR.yml`, `messages.pt-BR.xlf`), answers
 * a gettext tool accepts, exit code 0 after writing, and a file whose format sync cannot
 * tell refused by name instead of being sent as plain text. The built CLI against a real
 * server (pseudo engine).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { runCli, type ServedApi } from './served-api.js';
import { startSyncProject, type SyncProject } from './sync-project.js';

const FILES: Record<string, string> = {
  'po/en.po': 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: en\\n"\n\n#. The checkout button\nmsgid "Pay"\nmsgstr ""\n\nmsgid "%d file"\nmsgid_plural "%d files"\nmsgstr[0] ""\nmsgstr[1] ""\n',
  'config/locales/en.yml': 'en:\n  checkout:\n    pay_button: Pay\n',
  'src/main/resources/messages_en.properties': 'checkout.pay_button=Pay\n',
  'i18n/messages.en.xlf': '<?xml version="1.0"?>\n<xliff version="1.2">\n  <file source-language="en" datatype="plaintext" original="x">\n    <body>\n      <trans-unit id="pay">\n        <source>Pay</source>\n      </trans-unit>\n    </body>\n  </file>\n</xliff>\n',
};
const CONFIG = {
  source: 'en',
  targets: ['pt-BR', 'ru'],
  files: ['po/{locale}.po', 'config/locales/{locale}.yml', 'src/main/resources/messages_{locale}.properties', 'i18n/messages.{locale}.xlf'],
};

describe('sync with gettext, YAML, properties and XLIFF files (sqlite)', () => {
  let project: SyncProject;
  let api: ServedApi;
  let repo: string;
  let env: Record<string, string>;
  const file = (path: string) => project.file(path);

  before(async () => {
    project = await startSyncProject('locale-files', CONFIG, FILES);
    ({ api, repo, env } = project);
  });
  after(() => project?.stop());

  it('writes each target with its ecosystem\'s name and exits 0', async () => {
    const run = await runCli(['sync'], { cwd: repo, env });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    for (const path of ['po/pt_BR.po', 'po/ru.po', 'src/main/resources/messages_pt_BR.properties', 'config/locales/pt-BR.yml', 'i18n/messages.pt-BR.xlf', 'i18n/messages.ru.xlf']) {
      assert.ok(existsSync(join(repo, path)), `${path} missing`);
    }
    execFileSync('msgfmt', ['-c', '-o', '/dev/null', join(repo, 'po/ru.po')]);
    assert.match(file('po/ru.po'), /"Language: ru\\n"/);
    assert.deepEqual(Object.keys(parse(file('config/locales/pt-BR.yml')) as object), ['pt-BR']);
    assert.match(file('i18n/messages.ru.xlf'), /target-language="ru"/);
    const again = await runCli(['sync'], { cwd: repo, env });
    assert.equal(again.code, 0, again.stdout + again.stderr);
  });

  it('refuses a file whose format it cannot tell, naming the file and the format option, and sends nothing', async () => {
    const other = mkdtempSync(join(tmpdir(), 'translate-unknown-format-'));
    try {
      writeFileSync(join(other, 'translate.config.json'), JSON.stringify({ source: 'en', targets: ['fr'], files: ['strings/{locale}.lang'] }));
      mkdirSync(join(other, 'strings'));
      writeFileSync(join(other, 'strings/en.lang'), 'greeting = Hello\n');
      const before = api.requests.length;
      const run = await runCli(['sync'], { cwd: other, env });
      assert.equal(run.code, 1, run.stdout + run.stderr);
      assert.match(run.stderr + run.stdout, /strings\/en\.lang.*"format"/);
      assert.equal(api.requests.slice(before).filter((r) => r.method === 'POST').length, 0);
      assert.ok(!existsSync(join(other, 'strings/fr.lang')));
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});

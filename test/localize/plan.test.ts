/** The diff rules of decision 0029 that the end-to-end test does not reach: adopting translations made before the lock. */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { entry } from '../../src/localize/lockfile.js';
import { lockAfter, planSync } from '../../src/localize/plan.js';
import { parseProjectConfig } from '../../src/localize/project-config.js';

const config = parseProjectConfig({ source: 'en', targets: ['fr'], files: ['locales/{locale}.json'] });

describe('planning a sync', () => {
  let root: string;
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'translate-plan-'))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('adopts a translation that existed before the lock, but sends one that is a copy of its source', () => {
    write('locales/en.json', '{"save": "Save", "cancel": "Cancel", "new": "New"}');
    write('locales/fr.json', '{"save": "Enregistrer", "cancel": "Cancel"}');
    const [target] = planSync(root, config, {}).targets;
    assert.deepEqual([...target!.kept], [['/save', 'Enregistrer']]);
    assert.deepEqual(target!.toSend, ['/cancel', '/new']);
    assert.deepEqual(target!.lock, { '/save': entry('Save', 'Enregistrer') });
    assert.deepEqual(lockAfter(target!, new Map([['/cancel', 'Annuler'], ['/new', 'Nouveau']])), {
      '/save': entry('Save', 'Enregistrer'),
      '/cancel': entry('Cancel', 'Annuler'),
      '/new': entry('New', 'Nouveau'),
    });
  });

  it('sends a string again when its target value was deleted by hand, and removes what the source lost', () => {
    write('locales/en.json', '{"save": "Save"}');
    write('locales/fr.json', '{"gone": "Parti"}');
    const [target] = planSync(root, config, { 'locales/en.json': { fr: { '/save': entry('Save', 'Enregistrer') } } }).targets;
    assert.deepEqual(target!.toSend, ['/save']);
    assert.deepEqual(target!.removed, ['/gone']);
  });

  it('never plans to remove a document string: an emptied source document leaves its target alone', () => {
    const docs = parseProjectConfig({ source: 'en', targets: ['fr'], files: ['docs/{locale}/*.md'] });
    write('docs/en/empty.md', '');
    write('docs/fr/empty.md', 'Vide.\n');
    const [target] = planSync(root, docs, {}).targets;
    assert.deepEqual([target!.toSend, target!.removed], [[], []]);
  });

  it('refuses a target that is not JSON instead of overwriting it', () => {
    write('locales/en.json', '{"save": "Save"}');
    write('locales/fr.json', '{"save": "Enregistrer",');
    assert.throws(() => planSync(root, config, {}), /locales\/fr\.json is not valid JSON/);
  });
});

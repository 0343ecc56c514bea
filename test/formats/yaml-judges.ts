/**
 * A reader of Rails YAML that is not ours, for the tests: translate-toolkit's
 * RubyYAMLFile (Debian's translate-toolkit, installed by .ci/run), which reads a plural
 * hash as one unit whose forms come in CLDR's order. It answers what it read, or throws
 * what it said.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Debian's python3, where translate-toolkit is installed (a pyenv shim may come first on PATH). */
const PYTHON = '/usr/bin/python3';

const SCRIPT = `import sys, json
from translate.storage import yaml
store = yaml.RubyYAMLFile.parsefile(sys.argv[1])
print(json.dumps({u.getid(): list(getattr(u.source, 'strings', [u.source])) for u in store.units}))`;

/** A Rails YAML text as translate-toolkit reads it: unit id (`a->b`) -> its forms (one for a plain string). */
export function toolkitRubyYaml(text: string): Record<string, string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'yaml-judge-'));
  try {
    const file = join(dir, 'file.yml');
    writeFileSync(file, text);
    return JSON.parse(execFileSync(PYTHON, ['-c', SCRIPT, file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })) as Record<string, string[]>;
  } catch (error) {
    throw new Error(String((error as { stderr?: string }).stderr ?? error).trim().split('\n').pop());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

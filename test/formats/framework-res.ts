/**
 * Real Android string resources on any Debian machine: the Android framework's own
 * `framework-res.apk` (Debian's android-framework-res, AOSP's strings in 90 languages),
 * decoded back to `res/values*\/strings.xml` and `plurals.xml` by Debian's apktool. The
 * decoding takes a while, so it is done once per machine into a folder under the system's
 * temporary directory named for the package file's size and date. Nothing is copied into
 * the repository. Shared by the sampled test and the mobile real-world bench.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const FRAMEWORK_APK = '/usr/share/android-framework-res/framework-res.apk';

export interface ResourceFile {
  /** `values-fr/strings.xml`. */
  readonly path: string;
  readonly content: string;
}

/** The decoded folder, decoding it first when this machine has not yet; undefined without apktool or the package. */
export function decodedFramework(): string | undefined {
  if (!existsSync(FRAMEWORK_APK)) return undefined;
  const stat = statSync(FRAMEWORK_APK);
  const folder = join(tmpdir(), `framework-res-${stat.size}-${Math.floor(stat.mtimeMs)}`);
  if (existsSync(join(folder, 'res', 'values', 'strings.xml'))) return folder;
  const partial = `${folder}.${process.pid}`;
  try {
    execFileSync('apktool', ['decode', '--no-src', '--force', '--output', partial, FRAMEWORK_APK], { stdio: 'pipe', timeout: 600_000 });
  } catch {
    rmSync(partial, { recursive: true, force: true });
    return undefined;
  }
  // (Renamed when whole, so a run that was stopped halfway is not taken for a decoded folder.)
  if (!existsSync(folder)) renameSync(partial, folder);
  else rmSync(partial, { recursive: true, force: true });
  return folder;
}

/** Every `values*\/strings.xml` and `plurals.xml` of the decoded framework, sorted by path. */
export function frameworkResources(): ResourceFile[] {
  const folder = decodedFramework();
  if (!folder) return [];
  const res = join(folder, 'res');
  const out: ResourceFile[] = [];
  for (const values of readdirSync(res).filter((name) => /^values(?:-|$)/.test(name)).sort()) {
    for (const name of ['strings.xml', 'plurals.xml']) {
      const path = join(res, values, name);
      if (existsSync(path)) out.push({ path: `${values}/${name}`, content: readFileSync(path, 'utf8') });
    }
  }
  return out;
}

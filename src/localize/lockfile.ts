/**
 * `translate.lock`, committed next to translate.config.json: for every source file, target
 * and string (a JSON Pointer; "" for a document sent whole), the hash of the source text
 * last translated and the hash of the translation written then, as `"<source>:<written>"`.
 * The first tells a changed source string from an unchanged one; the second tells a
 * translation edited by hand (the file's text no longer hashes to it) from ours. Written
 * with sorted keys, one entry a line, so that its diffs in review are the strings that
 * changed (docs/decisions/0029-localize-lockfile-and-diff.md).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

export const LOCK_FILE = 'translate.lock';
const VERSION = 1;

/** Per target: string pointer -> entry. */
export type TargetLock = Record<string, string>;
/** Source path -> target code -> TargetLock. */
export type LockFiles = Record<string, Record<string, TargetLock>>;

export interface LockEntry {
  readonly source: string;
  readonly written: string;
}

/** 64 bits of SHA-256, hex: enough to tell the edits of one repository's strings apart. */
export function textHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 16);
}

export function entry(source: string, written: string): string {
  return `${textHash(source)}:${textHash(written)}`;
}

export function parseEntry(value: string | undefined): LockEntry | undefined {
  if (value === undefined) return undefined;
  const [source, written] = value.split(':');
  return source && written ? { source, written } : undefined;
}

export class LockfileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LockfileError';
  }
}

/** The lock's files, or none when there is no lock yet. */
export function readLockfile(path: string): LockFiles {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return {};
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new LockfileError(`${path} is not valid JSON (${(error as Error).message}); restore it from version control or delete it to start over`);
  }
  const lock = parsed as { version?: unknown; files?: unknown };
  if (lock.version !== VERSION || typeof lock.files !== 'object' || lock.files === null) {
    throw new LockfileError(`${path} is not a version ${VERSION} translate.lock; restore it from version control or delete it to start over`);
  }
  return lock.files as LockFiles;
}

export function formatLockfile(files: LockFiles): string {
  const sorted = (record: Record<string, unknown>) =>
    Object.fromEntries(Object.keys(record).sort().map((key) => [key, record[key]]));
  const ordered = sorted(
    Object.fromEntries(Object.entries(files).map(([path, targets]) => [path, sorted(Object.fromEntries(Object.entries(targets).map(([t, l]) => [t, sorted(l)])))])),
  );
  return `${JSON.stringify({ version: VERSION, files: ordered }, null, 2)}\n`;
}

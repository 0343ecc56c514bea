/**
 * What `sync` has to do, worked out from three things without a request: the source
 * files, the target files, and the lock. The rules (docs/decisions/0029):
 * - a source string whose hash the lock holds for a target, with that target's file
 *   still having a value for it, is up to date — whether that value is what we wrote
 *   or a hand edit (it no longer hashes to what we wrote): a hand edit is kept;
 * - a new or changed source string, or one whose target value is missing, is sent;
 *   a changed one is sent even over a hand edit, since the edit translated the old text;
 * - a target value with no lock entry is adopted as a translation (a project that had
 *   translations before the lock), unless it equals its source text (a copied file);
 * - a target string the source no longer has is removed; a source file that is gone
 *   takes its target files with it when the lock shows we wrote them.
 * JSON files are handled string by string, String Catalogs entry by entry (one file for
 * every language, string-catalog.ts), the locale formats of entry-files.ts entry by entry
 * (decision 0077); every other file as one document.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Format } from './api.js';
import { formatFromExtension, localeInFileName, sourceLocaleInFileName } from './file-formats.js';
import { entryLayout, hasRoomForEntries, isEntryFormat, mergeEntries, noEntries, readEntryFile, type FileEntries, type FileEntry } from './entry-files.js';
import { stringLiterals, stringValues, withStrings, type StringLiteral } from './json-strings.js';
import { CatalogError, catalogTargetValues, catalogUnits, mergeCatalog } from './string-catalog.js';
import { decodeFile, type FileEncoding } from './text-encoding.js';
import { entry, parseEntry, textHash, type LockFiles, type TargetLock } from './lockfile.js';
import { FilePattern } from './patterns.js';
import type { ProjectConfig } from './project-config.js';

/** The pointer of a document sent whole (RFC 6901's pointer to the whole value). */
export const WHOLE_DOCUMENT = '';

export interface SourceFile {
  /** Relative to the project root, `/`-separated. */
  readonly path: string;
  /**
   * `strings`: a JSON file synced string by string; `catalog`: a String Catalog, entry by
   * entry, in place; `entries`: a locale file synced entry by entry; `document`: sent whole.
   */
  readonly kind: 'strings' | 'catalog' | 'entries' | 'document';
  /** Sent to the API; undefined lets it detect the format. */
  readonly format?: Format;
  /** The file's text. */
  readonly text: string;
  /** How its bytes were decoded (a UTF-16 `.strings` file is written back in UTF-16). */
  readonly encoding: FileEncoding;
  /** Pointer -> source text, in document order. */
  readonly units: ReadonlyMap<string, string>;
  /** Pointer -> textHash of its source text, computed once for every target. */
  readonly hashes: ReadonlyMap<string, string>;
  /** A JSON file's string literals, where its targets' strings go. */
  readonly literals?: readonly StringLiteral[];
  /** A locale file's entries (`entries` files). */
  readonly entries?: FileEntries;
}

export interface TargetPlan {
  readonly file: SourceFile;
  readonly target: string;
  readonly targetPath: string;
  /** The target file's text now, undefined when it does not exist. */
  readonly existing: string | undefined;
  /** The encoding the target is written in: the one it has, else its source's. */
  readonly encoding: FileEncoding;
  /** Pointer -> target text kept as it is. */
  readonly kept: ReadonlyMap<string, string>;
  /** Pointers whose source text is sent. */
  readonly toSend: readonly string[];
  /** Pointers the target has and the source no longer does. */
  readonly removed: readonly string[];
  /** Lock entries of the kept strings (those of sent strings are added once they are back). */
  readonly lock: TargetLock;
  /** The existing target's entries (`entries` files). */
  readonly targetEntries?: FileEntries;
}

export interface RemovedFile {
  readonly sourcePath: string;
  readonly target: string;
  readonly targetPath: string;
}

export interface SyncPlan {
  readonly targets: readonly TargetPlan[];
  readonly removedFiles: readonly RemovedFile[];
}

export class SyncInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SyncInputError';
  }
}

interface Located {
  readonly path: string;
  readonly pattern: FilePattern;
  readonly format?: Format;
}

/** Source files matched by the config's patterns; a file two patterns match belongs to the first. */
function locateSources(root: string, config: ProjectConfig): Located[] {
  const seen = new Set<string>();
  const located: Located[] = [];
  for (const rule of config.files) {
    const pattern = new FilePattern(rule.pattern);
    for (const path of pattern.list(root, sourceLocaleInFileName(rule.format ?? formatFromExtension(rule.pattern), config.source))) {
      if (seen.has(path)) continue;
      seen.add(path);
      located.push({ path, pattern, ...(rule.format ? { format: rule.format } : {}) });
    }
  }
  return located;
}

function readSource(root: string, located: Located): SourceFile {
  const { text, encoding } = decodeFile(readFileSync(join(root, located.path)));
  const format = located.format ?? formatFromExtension(located.path);
  // Sent as plain text, a locale file came back with its keywords translated: refused instead.
  if (format === undefined) {
    throw new SyncInputError(
      `${located.path}: sync does not know this file's format from its extension; set "format" on its entry in translate.config.json (one of the API's formats)`,
    );
  }
  if (format === 'xcstrings') {
    const units = checkedCatalog(() => catalogUnits(text, located.path));
    return { path: located.path, kind: 'catalog', format, text, encoding, units, hashes: hashesOf(units) };
  }
  const entries = isEntryFormat(format) ? readEntries(format, text, located.path) : undefined;
  if (entries !== undefined) {
    const units = new Map([...entries.values()].map((entry) => [entry.key, entry.unit]));
    return { path: located.path, kind: 'entries', format, text, encoding, units, hashes: hashesOf(units), entries };
  }
  if (format !== 'json') {
    const units = new Map(text.trim() === '' ? [] : [[WHOLE_DOCUMENT, text]]);
    return { path: located.path, kind: 'document', ...(format ? { format } : {}), text, encoding, units, hashes: hashesOf(units) };
  }
  const literals = stringLiterals(checkedJson(text, located.path));
  const units = new Map(literals.map((literal) => [literal.pointer, literal.value]));
  return { path: located.path, kind: 'strings', format, text, encoding, units, hashes: hashesOf(units), literals };
}

/**
 * A locale file's entries (undefined when the file is synced whole, entry-files.ts); one
 * that does not parse as its format stops the sync, named.
 */
function readEntries(format: Format, text: string, path: string): FileEntries | undefined {
  try {
    return readEntryFile(format, text);
  } catch (error) {
    throw new SyncInputError(`${path} is not a valid ${format} file: ${(error as Error).message}`);
  }
}

/** A target's entries, which its source's are merged into: one that cannot be read entry by entry stops the sync, named. */
function readTargetEntries(format: Format, text: string, path: string): FileEntries {
  const entries = readEntries(format, text, path);
  if (entries === undefined) {
    throw new SyncInputError(`${path}: a string of this file is in a list, which sync cannot merge entry by entry while its source can; move it or delete the file to have it written again`);
  }
  return entries;
}

function hashesOf(units: ReadonlyMap<string, string>): Map<string, string> {
  return new Map([...units].map(([pointer, text]) => [pointer, textHash(text)]));
}

function checkedJson(text: string, path: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    throw new SyncInputError(`${path} is not valid JSON: ${(error as Error).message}`);
  }
  return text;
}

function checkedCatalog<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof CatalogError) throw new SyncInputError(error.message);
    throw error;
  }
}

function targetUnits(
  file: SourceFile,
  existing: string | undefined,
  targetPath: string,
  target: string,
  entries: ReadonlyMap<string, FileEntry> | undefined,
): Map<string, string> {
  if (existing === undefined) return new Map();
  if (file.kind === 'document') return new Map([[WHOLE_DOCUMENT, existing]]);
  if (file.kind === 'catalog') return checkedCatalog(() => catalogTargetValues(existing, targetPath, target));
  if (entries !== undefined) return new Map([...entries.values()].filter((entry) => entry.translated).map((entry) => [entry.key, entry.regionText]));
  // A target we cannot read is not overwritten: its owner decides what it should be.
  return stringValues(checkedJson(existing, targetPath));
}

function planTarget(root: string, file: SourceFile, target: string, targetPath: string, lock: TargetLock | undefined): TargetPlan {
  const absolute = join(root, targetPath);
  const decoded = existsSync(absolute) ? decodeFile(readFileSync(absolute)) : undefined;
  const existing = decoded?.text;
  const encoding = decoded?.encoding ?? file.encoding;
  const targetEntries = file.kind === 'entries' && existing !== undefined ? readTargetEntries(file.format!, existing, targetPath) : undefined;
  const current = targetUnits(file, existing, targetPath, target, targetEntries);
  // What a target value is compared with to tell a copied file from a translation.
  const sourceOf = (pointer: string, sourceText: string): string => (file.kind === 'entries' ? file.entries!.get(pointer)!.regionText : sourceText);
  const kept = new Map<string, string>();
  const toSend: string[] = [];
  const newLock: TargetLock = {};
  for (const [pointer, sourceText] of file.units) {
    const recorded = parseEntry(lock?.[pointer]);
    const value = current.get(pointer);
    if (value !== undefined && recorded !== undefined && recorded.source === file.hashes.get(pointer)) {
      kept.set(pointer, value);
      newLock[pointer] = lock![pointer]!;
    } else if (value !== undefined && recorded === undefined && value !== sourceOf(pointer, sourceText) && sameSourceInTarget(file, targetEntries, pointer)) {
      kept.set(pointer, value);
      newLock[pointer] = entry(sourceText, value);
    } else {
      toSend.push(pointer);
    }
  }
  // A document is removed whole, with its source file (planSync's removedFiles), never as a string;
  // a catalog's entries go with the source's.
  const present = targetEntries !== undefined ? [...targetEntries.keys()] : [...current.keys()];
  const removed = file.kind === 'document' || file.kind === 'catalog' ? [] : present.filter((pointer) => !file.units.has(pointer));
  // An empty XML root (`<resources/>`) has no place for entries: the answer replaces the file.
  if (targetEntries !== undefined && !hasRoomForEntries(targetEntries)) return { file, target, targetPath, existing: undefined, encoding, kept, toSend, removed, lock: newLock };
  return { file, target, targetPath, existing, encoding, kept, toSend, removed, lock: newLock, ...(targetEntries ? { targetEntries } : {}) };
}

/**
 * Whether a target entry with no lock entry translates the source as it is now. A file
 * that carries each unit's source beside its translation (XLIFF) says what it translated:
 * a unit whose own `<source>` is not the source's any more is out of date and sent again,
 * not adopted as a hand translation. Other formats' targets hold translations only.
 */
function sameSourceInTarget(file: SourceFile, targetEntries: FileEntries | undefined, pointer: string): boolean {
  if (file.format !== 'xliff' || targetEntries === undefined) return true;
  const target = targetEntries.get(pointer);
  return target !== undefined && sourceTextOf(target) === sourceTextOf(file.entries!.get(pointer)!);
}

/** The text an entry's unit says its source is (its notes may differ between files). */
const sourceTextOf = (entry: FileEntry): unknown => (JSON.parse(entry.unit) as unknown[])[0];

export function planSync(root: string, config: ProjectConfig, lock: LockFiles): SyncPlan {
  const located = locateSources(root, config);
  const targets: TargetPlan[] = [];
  for (const source of located) {
    const file = readSource(root, source);
    for (const target of config.targets) {
      const targetPath = source.pattern.pathFor(source.path, sourceLocaleInFileName(file.format, config.source), localeInFileName(file.format, target));
      targets.push(planTarget(root, file, target, targetPath, lock[source.path]?.[target]));
    }
  }
  const removedFiles: RemovedFile[] = [];
  const present = new Set(located.map((source) => source.path));
  for (const [sourcePath, byTarget] of Object.entries(lock)) {
    if (present.has(sourcePath)) continue;
    const format = formatFromExtension(sourcePath);
    const rule = config.files.map((r) => new FilePattern(r.pattern)).find((p) => p.matches(sourcePath, sourceLocaleInFileName(format, config.source)));
    if (rule === undefined) continue; // no longer configured: its files are left alone
    for (const target of Object.keys(byTarget)) {
      if (!config.targets.includes(target)) continue;
      removedFiles.push({ sourcePath, target, targetPath: rule.pathFor(sourcePath, sourceLocaleInFileName(format, config.source), localeInFileName(format, target)) });
    }
  }
  return { targets, removedFiles };
}

/**
 * The target file's text once `translated` (pointer -> text of the sent strings) is in. A
 * catalog is merged into `base`, the file as it is on disk when it is written (other
 * targets of the same run may be in it already).
 */
export function renderTarget(plan: TargetPlan, translated: ReadonlyMap<string, string>, base: string | undefined = plan.existing): string | undefined {
  const valueOf = (pointer: string): string => {
    const value = translated.get(pointer) ?? plan.kept.get(pointer);
    if (value === undefined) throw new Error(`no text for ${pointer} of ${plan.targetPath}`);
    return value;
  };
  if (plan.file.kind === 'document') return plan.file.units.size === 0 ? plan.existing : valueOf(WHOLE_DOCUMENT);
  if (plan.file.kind === 'catalog') return mergeCatalog(base ?? plan.file.text, plan.targetPath, plan.target, plan.file.units.keys(), valueOf);
  if (plan.file.kind === 'entries') {
    const answer = translated.get(WHOLE_DOCUMENT);
    // No target yet: everything was sent, and the answer is the whole file.
    if (plan.existing === undefined) return answer;
    const answerEntries = answer === undefined ? noEntries(plan.file.format!) : readEntryFile(plan.file.format!, answer);
    if (answerEntries === undefined) throw new Error(`the API's translation of ${plan.file.path} cannot be read entry by entry`);
    const format = plan.file.format!;
    const merged = mergeEntries(plan.existing, plan.targetEntries!, answer ?? '', answerEntries, [...plan.file.units.keys()], answer === undefined ? [] : plan.toSend, plan.removed, entryLayout(format));
    return checkedMerge(format, merged, plan);
  }
  return withStrings(plan.file.text, valueOf, plan.file.literals);
}

/**
 * A merged target, once it reads back as its format with every source entry in it: a
 * merge that went wrong (a target whose layout sync did not write) is an error naming the
 * file, never a broken file written.
 */
function checkedMerge(format: Format, merged: string, plan: TargetPlan): string {
  let entries: FileEntries | undefined;
  try {
    entries = readEntryFile(format, merged);
  } catch (error) {
    throw new Error(`merging the translation into ${plan.targetPath} gave a file that is not valid ${format} (${(error as Error).message}); delete it to have it written again`);
  }
  const missing = [...plan.file.units.keys()].filter((key) => !entries?.has(key));
  if (missing.length > 0) {
    throw new Error(`merging the translation into ${plan.targetPath} lost ${missing.map((key) => JSON.stringify(key)).slice(0, 3).join(', ')}; delete it to have it written again`);
  }
  return merged;
}

/** The lock entries of a target once `translated` is in. */
export function lockAfter(plan: TargetPlan, translated: ReadonlyMap<string, string>): TargetLock {
  const lock: TargetLock = { ...plan.lock };
  for (const [pointer, text] of translated) if (plan.file.units.has(pointer)) lock[pointer] = entry(plan.file.units.get(pointer)!, text);
  return lock;
}

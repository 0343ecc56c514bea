/**
 * File patterns with a `{locale}` slot, e.g. `locales/{locale}.json` or
 * `docs/{locale}/**\/*.md`: the source's files are found by putting the source code in
 * the slot, and each one's counterpart for a target is the same path with the target code
 * in the slot and every wildcard matched as it was in the source path.
 *
 * A glob library lists files but does not say which part of a path each wildcard
 * matched, and that is exactly what the mapping from source path to target path needs;
 * the subset here (`*`, `?`, `**` as a whole segment) is small enough to own
 * (docs/decisions/0029-localize-lockfile-and-diff.md).
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const LOCALE_SLOT = '{locale}';

type Piece =
  | { readonly kind: 'literal'; readonly text: string }
  | { readonly kind: 'locale' }
  /** `*`: any characters but `/`. */
  | { readonly kind: 'star' }
  /** `?`: one character but `/`. */
  | { readonly kind: 'one' }
  /** `**\/`: any number of whole folders (the slash is part of it). */
  | { readonly kind: 'folders' }
  /** A trailing `/**`'s `**`: anything below. */
  | { readonly kind: 'rest' };

const WILDCARDS = new Set<Piece['kind']>(['star', 'one', 'folders', 'rest']);

/** Why a pattern cannot be used, or undefined when it can. */
export function checkPattern(pattern: string): string | undefined {
  // A String Catalog holds every language in one file, updated in place: its pattern has no slot.
  if (!pattern.includes(LOCALE_SLOT) && !pattern.endsWith('.xcstrings')) return `has no ${LOCALE_SLOT} slot for the language code`;
  if (pattern.startsWith('/') || /^[A-Za-z]:/.test(pattern)) return 'must be relative to the config file';
  if (pattern.includes('\\')) return 'must use / between folders';
  if (pattern.split('/').some((segment) => segment === '..' || segment === '.' || segment === '')) {
    return 'must not contain empty, "." or ".." folders';
  }
  const rest = pattern.split(LOCALE_SLOT).join('');
  if (/[[\]{}]/.test(rest)) return 'supports only * ? ** and {locale} (no [..] or {a,b})';
  if (/\*\*/.test(rest) && !pattern.split('/').every((segment) => !segment.includes('**') || segment === '**')) {
    return '** must be a whole folder name (docs/**/x.md)';
  }
  if (pattern.endsWith('/**')) return 'must end with a file name (docs/**/*.md, not docs/**)';
  return undefined;
}

function pieces(pattern: string): Piece[] {
  const out: Piece[] = [];
  let literal = '';
  const flush = () => {
    if (literal) out.push({ kind: 'literal', text: literal });
    literal = '';
  };
  for (let i = 0; i < pattern.length; ) {
    if (pattern.startsWith(LOCALE_SLOT, i)) {
      flush();
      out.push({ kind: 'locale' });
      i += LOCALE_SLOT.length;
    } else if (pattern.startsWith('**/', i)) {
      flush();
      out.push({ kind: 'folders' });
      i += 3;
    } else if (pattern.startsWith('**', i)) {
      flush();
      out.push({ kind: 'rest' });
      i += 2;
    } else if (pattern[i] === '*') {
      flush();
      out.push({ kind: 'star' });
      i += 1;
    } else if (pattern[i] === '?') {
      flush();
      out.push({ kind: 'one' });
      i += 1;
    } else {
      literal += pattern[i];
      i += 1;
    }
  }
  flush();
  return out;
}

/**
 * The pieces for one locale: an empty locale (Android's default resources, `values/`,
 * file-formats.ts) takes the `-` before its slot with it, so `values-{locale}` reads
 * `values`.
 */
function forLocale(parts: readonly Piece[], locale: string): readonly Piece[] {
  if (locale !== '') return parts;
  return parts.map((part, i) =>
    part.kind === 'literal' && parts[i + 1]?.kind === 'locale' && part.text.endsWith('-') ? { kind: 'literal', text: part.text.slice(0, -1) } : part,
  );
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

function regexFor(pieces: readonly Piece[], locale: string): RegExp {
  const body = forLocale(pieces, locale)
    .map((part) => {
      switch (part.kind) {
        case 'literal':
          return escape(part.text);
        case 'locale':
          return escape(locale);
        case 'star':
          return '([^/]*)';
        case 'one':
          return '([^/])';
        case 'folders':
          return '((?:[^/]+/)*)';
        case 'rest':
          return '(.*)';
      }
    })
    .join('');
  return new RegExp(`^${body}$`);
}

export class FilePattern {
  private readonly parts: readonly Piece[];

  constructor(readonly pattern: string) {
    this.parts = pieces(pattern);
  }

  /** The path for `locale` that corresponds to `sourcePath` (a path this pattern matched for `sourceLocale`). */
  pathFor(sourcePath: string, sourceLocale: string, locale: string): string {
    const match = regexFor(this.parts, sourceLocale).exec(sourcePath);
    if (match === null) throw new Error(`${sourcePath} does not match ${this.pattern}`);
    let group = 1;
    return forLocale(this.parts, locale)
      .map((part) => {
        if (part.kind === 'literal') return part.text;
        if (part.kind === 'locale') return locale;
        return match[group++]!;
      })
      .join('');
  }

  /** Whether `path` is one this pattern names for `locale`. */
  matches(path: string, locale: string): boolean {
    return regexFor(this.parts, locale).test(path);
  }

  /** The files under `root` this pattern matches for `locale`, as sorted `/`-separated paths relative to root. */
  list(root: string, locale: string): string[] {
    const parts = forLocale(this.parts, locale);
    const firstWildcard = parts.findIndex((part) => WILDCARDS.has(part.kind));
    const fixed = (firstWildcard === -1 ? parts : parts.slice(0, firstWildcard))
      .map((part) => (part.kind === 'literal' ? part.text : locale))
      .join('');
    const regex = regexFor(this.parts, locale);
    if (firstWildcard === -1) return isFile(join(root, fixed)) ? [fixed] : [];
    const folder = fixed.slice(0, fixed.lastIndexOf('/') + 1);
    return walk(root, folder)
      .filter((path) => regex.test(path))
      .sort();
  }
}

/** Folders never searched: version control and installed packages. */
const SKIPPED_FOLDERS = new Set(['.git', 'node_modules']);

function walk(root: string, folder: string): string[] {
  let entries;
  try {
    entries = readdirSync(join(root, folder), { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const path = `${folder}${entry.name}`;
    if (entry.isDirectory()) return SKIPPED_FOLDERS.has(entry.name) ? [] : walk(root, `${path}/`);
    return entry.isFile() ? [path] : [];
  });
}

function isFile(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isFile() === true;
}

/** The imports of src/'s TypeScript, read from the source text, for the architecture tests. */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { filesUnder } from './files.js';

export interface Import {
  /** The importing file, relative to src/. */
  readonly file: string;
  /** As written. */
  readonly specifier: string;
  /** Relative to src/ for a relative specifier; undefined for a package or node: built-in. */
  readonly target?: string;
}

export const SRC = resolve('src');

/** The specifiers a module's text imports or re-exports, in any of the four forms (type-only ones too). */
export function importSpecifiers(text: string): string[] {
  // Comments may mention imports; strings rarely do, and src/ has no such string.
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const forms = [
    /\b(?:import|export)\b[^;'"`]*?\bfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\bimport\s+['"]([^'"]+)['"]/g,
  ];
  return forms.flatMap((form) => [...code.matchAll(form)].map((match) => match[1]!));
}

/** `../formats/format.js` from `src/engines/engine.ts` → `formats/format.ts`; a folder → its index.ts. */
export function resolveTarget(file: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const path = relative(SRC, resolve(dirname(join(SRC, file)), specifier)).split('\\').join('/');
  if (path.endsWith('.js')) return `${path.slice(0, -3)}.ts`;
  if (path.endsWith('.ts')) return path;
  return `${path}/index.ts`;
}

/** Every import of every .ts file under src/. */
export function readImports(): Import[] {
  return filesUnder(SRC, '.ts').flatMap((path) => {
    const file = relative(SRC, path).split('\\').join('/');
    return importSpecifiers(readFileSync(path, 'utf8')).map((specifier) => {
      const target = resolveTarget(file, specifier);
      return target === undefined ? { file, specifier } : { file, specifier, target };
    });
  });
}

export function describeImport(edge: Import): string {
  return `src/${edge.file} imports '${edge.specifier}'`;
}

/** File writes that never leave half a file behind: write beside, then rename over. */
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { encodeFile, type FileEncoding } from './text-encoding.js';

/** Writes `text` in `encoding` (UTF-8 unless the file was read in another: text-encoding.ts). */
export function writeFileAtomic(path: string, text: string, encoding: FileEncoding = 'utf8'): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, encodeFile(text, encoding));
  renameSync(temporary, path);
}

export function removeFile(path: string): void {
  rmSync(path, { force: true });
}

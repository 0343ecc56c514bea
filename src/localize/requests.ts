/**
 * The requests a sync sends: the strings one source file needs, grouped by the targets
 * that need exactly those strings (usually all of them: one request serves every target).
 * A JSON file's strings travel as one small JSON object keyed by their pointers, so the
 * API applies its JSON rules (placeholders, `:name` markers, strings that are not prose)
 * to them as it would to the file; a locale file's new and changed entries travel as the
 * file with the other entries cut out (entry-files.ts); a document travels whole. Small requests are gathered
 * into `/translate/batch` calls, large ones go to jobs.
 */
import type { Format } from './api.js';
import { WHOLE_DOCUMENT, type TargetPlan } from './plan.js';
import { catalogAnswer, catalogSubset } from './string-catalog.js';
import { partialDocument, readEntryFile } from './entry-files.js';

/** One source file's strings for a set of targets. */
export interface Work {
  readonly id: string;
  readonly file: string;
  readonly format?: Format;
  readonly targets: readonly string[];
  readonly pointers: readonly string[];
  readonly content: string;
  /** The target plans this work completes, one per target. */
  readonly plans: readonly TargetPlan[];
}

/** The API's batch limits: 100 items; bodies stay well under its 2 MiB. */
const BATCH_ITEMS = 100;
const BATCH_CHARACTERS = 512 * 1024;

export function gatherWork(plans: readonly TargetPlan[]): Work[] {
  const groups = new Map<string, TargetPlan[]>();
  for (const plan of plans) {
    if (plan.toSend.length === 0) continue;
    // A String Catalog goes once for every target that needs something of it.
    const key = plan.file.kind === 'catalog' ? plan.file.path : `${plan.file.path}\u0000${plan.toSend.join('\u0000')}`;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key)!.push(plan);
  }
  return [...groups.values()].map((group, i) => {
    const { file } = group[0]!;
    const toSend = file.kind === 'catalog' ? [...new Set(group.flatMap((plan) => plan.toSend))] : group[0]!.toSend;
    const content =
      file.kind === 'document'
        ? file.units.get(WHOLE_DOCUMENT)!
        : file.kind === 'catalog'
          ? catalogSubset(file.text, file.path, toSend)
          : file.kind === 'entries'
            ? partialDocument(file.text, file.entries!, new Set(toSend))
            : JSON.stringify(Object.fromEntries(toSend.map((pointer) => [pointer, file.units.get(pointer)!])));
    return {
      id: String(i + 1),
      file: file.path,
      ...(file.format ? { format: file.format } : {}),
      targets: group.map((plan) => plan.target),
      pointers: toSend,
      content,
      plans: group,
    };
  });
}

/** The translated strings of one target, read back from the API's text for `work`. */
export function readTranslation(work: Work, target: string, text: string | undefined): Map<string, string> {
  if (text === undefined) throw new Error(`the API's answer for ${work.file} has no ${target} translation`);
  const file = work.plans[0]!.file;
  if (file.kind === 'document') {
    return new Map([[WHOLE_DOCUMENT, text]]);
  }
  if (file.kind === 'catalog') {
    const plan = work.plans.find((p) => p.target === target)!;
    return catalogAnswer(text, work.file, target, plan.toSend);
  }
  if (file.kind === 'entries') {
    // The answer is the sent entries' file translated: each entry's translation is its region.
    let entries;
    try {
      entries = readEntryFile(file.format!, text);
    } catch (error) {
      throw new Error(`the API's translation of ${work.file} is not a valid ${file.format} file: ${(error as Error).message}`);
    }
    if (entries === undefined) throw new Error(`the API's translation of ${work.file} cannot be read entry by entry`);
    const read = new Map([[WHOLE_DOCUMENT, text]]);
    for (const pointer of work.pointers) {
      const entry = entries.get(pointer);
      if (entry === undefined) throw new Error(`the API's translation of ${work.file} lacks the entry ${JSON.stringify(pointer)}`);
      read.set(pointer, entry.regionText);
    }
    return read;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`the API's translation of ${work.file} is not JSON`);
  }
  const values = parsed as Record<string, unknown>;
  return new Map(
    work.pointers.map((pointer) => {
      const value = values[pointer];
      if (typeof value !== 'string') throw new Error(`the API's translation of ${work.file} lacks ${pointer}`);
      return [pointer, value];
    }),
  );
}

export type Call =
  | { readonly via: 'translate'; readonly work: Work }
  | { readonly via: 'job'; readonly work: Work }
  | { readonly via: 'batch'; readonly works: readonly Work[] };

/** Works larger than `jobAbove` characters become jobs; the rest batches of works sharing their targets. */
export function planCalls(works: readonly Work[], jobAbove: number): Call[] {
  const calls: Call[] = [];
  const byTargets = new Map<string, Work[]>();
  for (const work of works) {
    if (work.content.length > jobAbove) {
      calls.push({ via: 'job', work });
      continue;
    }
    const key = work.targets.join('\u0000');
    if (!byTargets.has(key)) byTargets.set(key, []);
    byTargets.get(key)!.push(work);
  }
  for (const group of byTargets.values()) {
    let batch: Work[] = [];
    let characters = 0;
    const flush = () => {
      if (batch.length === 1) calls.push({ via: 'translate', work: batch[0]! });
      else if (batch.length > 1) calls.push({ via: 'batch', works: batch });
      batch = [];
      characters = 0;
    };
    for (const work of group) {
      if (batch.length === BATCH_ITEMS || (batch.length > 0 && characters + work.content.length > BATCH_CHARACTERS)) flush();
      batch.push(work);
      characters += work.content.length;
    }
    flush();
  }
  return calls;
}

/**
 * i18next plural keys in JSON (docs/formats.md, "Plurals"): sibling keys `<base>_<category>`
 * (and `<base>_ordinal_<category>`), next to one another in one object, where
 * `<base>_other` and at least one other category of the same base exist, are one counted
 * message. A lone `status_other` is not one.
 *
 * Such a family is one segment, from its first key to its last value's closing quote:
 * each member is a branch pair whose opening is `"key_one": "` and whose close is the
 * value's closing quote with what follows up to the next key (`",⏎  `), so
 * core/plural-shape.ts can give a target exactly its categories' keys: a kept key keeps
 * its place, a missing one is inserted just before `<base>_other` (its key written like
 * `<base>_other`'s), an extra one is removed with its line. `_zero` is i18next's
 * "exactly 0" in every language and is kept, like an ICU `=0`.
 */
import { parseTree, type Node } from 'jsonc-parser';
import { CLOSE, newPairId, OPEN, type DocumentBuilder } from './core/document.js';
import type { PluralBranch } from '../segments/segment.js';

const PLURAL_KEY = /^(.+?)(_ordinal)?_(zero|one|two|few|many|other)$/;

/** One family: its members in source order. */
export interface KeyFamily {
  readonly type: 'cardinal' | 'ordinal';
  readonly members: readonly FamilyMember[];
}

export interface FamilyMember {
  /** The category the key names. */
  readonly selector: string;
  /** Offset of the key's opening quote. */
  readonly keyStart: number;
  /** Offset and length of the value's string literal, quotes included. */
  readonly valueOffset: number;
  readonly valueLength: number;
  /** The value, decoded. */
  readonly value: string;
}

/**
 * The families of a JSON document, by the offset of their last member's value (where the
 * JSON adapter meets the family whole); every other member's value offset maps to null
 * (no segment of its own). Undefined when the document has none (the usual case: no
 * `_other"` in it at all).
 */
export function findKeyFamilies(content: string): Map<number, KeyFamily | null> | undefined {
  if (!content.includes('_other"')) return undefined;
  const root = parseTree(content);
  if (root === undefined) return undefined;
  const families = new Map<number, KeyFamily | null>();
  const visit = (node: Node): void => {
    if (node.type === 'object') addFamilies(node, families);
    for (const child of node.children ?? []) visit(child);
  };
  visit(root);
  return families.size > 0 ? families : undefined;
}

function addFamilies(object: Node, families: Map<number, KeyFamily | null>): void {
  const properties = object.children ?? [];
  let runStart = 0;
  while (runStart < properties.length) {
    const first = memberOf(properties[runStart]!);
    let runEnd = runStart + 1;
    if (first !== undefined) {
      while (runEnd < properties.length) {
        const next = memberOf(properties[runEnd]!);
        if (next === undefined || next.base !== first.base || next.ordinal !== first.ordinal) break;
        runEnd++;
      }
      const run = properties.slice(runStart, runEnd).map((property) => memberOf(property)!);
      const selectors = new Set(run.map((member) => member.member.selector));
      if (selectors.has('other') && selectors.size > 1 && selectors.size === run.length) {
        const members = run.map((member) => member.member);
        const last = members[members.length - 1]!;
        for (const member of members) families.set(member.valueOffset, null);
        families.set(last.valueOffset, { type: first.ordinal ? 'ordinal' : 'cardinal', members });
      }
    }
    runStart = runEnd;
  }
}

function memberOf(property: Node): { base: string; ordinal: boolean; member: FamilyMember } | undefined {
  const [key, value] = property.children ?? [];
  if (key?.type !== 'string' || value?.type !== 'string') return undefined;
  const match = PLURAL_KEY.exec(key.value as string);
  if (!match) return undefined;
  return {
    base: match[1]!,
    ordinal: match[2] !== undefined,
    member: { selector: match[3]!, keyStart: key.offset, valueOffset: value.offset, valueLength: value.length, value: value.value as string },
  };
}

/**
 * Adds a family as one segment of `out`: each member a branch pair around its value,
 * the value's text given to `maskValue` (the JSON adapter's own masking of a string value).
 */
export function addKeyFamily(
  out: DocumentBuilder,
  family: KeyFamily,
  escape: Parameters<DocumentBuilder['begin']>[3],
  maskValue: (member: FamilyMember) => void,
): void {
  const { members } = family;
  const last = members[members.length - 1]!;
  out.begin(members[0]!.keyStart, last.valueOffset + last.valueLength, 'value', escape);
  const branches: PluralBranch[] = [];
  members.forEach((member, i) => {
    const pair = newPairId();
    branches.push({ selector: member.selector, pair: out.pairCount + 1 });
    const valueEnd = member.valueOffset + member.valueLength;
    out.mark(OPEN, member.keyStart, member.valueOffset + 1, pair);
    maskValue(member);
    out.mark(CLOSE, valueEnd - 1, i + 1 < members.length ? members[i + 1]!.keyStart : valueEnd, pair);
  });
  out.plurals([{ type: family.type, style: 'i18next', branches }]);
  out.commit();
}

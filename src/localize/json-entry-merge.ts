/**
 * ARB files synced entry by entry (decision 0100): an entry is a message member of the
 * root object with its `@key` metadata member. Cutting or putting in members moves
 * commas, so the root object is taken apart into its members (jsonc-parser's offsets)
 * and put back together: each kept member's bytes and the separator that followed it
 * (comma, line break, indent, blank lines) stay as they were; a member that is now last
 * loses its comma to the object's own closing white space; a member put in takes the
 * file's usual separator (a new message and its `@key` the answer's between them). Nothing outside the root's members is rewritten, `@@locale` and
 * the other `@@` attributes included.
 */
import { parseTree } from 'jsonc-parser';

/** What the merge reads of an entry (entry-files.ts's FileEntry): where its string's content lies. */
interface FileEntry {
  readonly region: readonly [number, number];
  readonly regionText: string;
}

interface Member {
  readonly key: string;
  readonly start: number;
  readonly end: number;
}

interface RootObject {
  /** After `{` and at `}`. */
  readonly open: number;
  readonly close: number;
  readonly members: readonly Member[];
}

function rootObject(text: string): RootObject {
  const root = parseTree(text, [], { disallowComments: true, allowTrailingComma: false });
  if (root?.type !== 'object') throw new Error('an ARB file is a JSON object');
  const members = (root.children ?? []).map((pair) => ({ key: pair.children![0]!.value as string, start: pair.offset, end: pair.offset + pair.length }));
  return { open: root.offset + 1, close: root.offset + root.length - 1, members };
}

/** The key whose entry a member belongs to: its own, or the message's of an `@key` member. */
const entryKeyOf = (key: string): string => (key.startsWith('@') && !key.startsWith('@@') ? key.slice(1) : key);

/** What a rebuilt object holds: a member's bytes and the separator written after it when another follows. */
interface Piece {
  readonly text: string;
  readonly separator: string | undefined;
}

/** The separator between two members the file uses most (the first of those met as often); none with fewer than two members. */
function usualSeparator(text: string, object: RootObject): string | undefined {
  const counts = new Map<string, number>();
  for (let i = 1; i < object.members.length; i++) {
    const separator = text.slice(object.members[i - 1]!.end, object.members[i]!.start);
    counts.set(separator, (counts.get(separator) ?? 0) + 1);
  }
  let usual: string | undefined;
  for (const [separator, count] of counts) if (usual === undefined || count > counts.get(usual)!) usual = separator;
  return usual;
}

function rebuild(text: string, object: RootObject, pieces: readonly Piece[], fallback: RootObject & { readonly text: string }): string {
  const { members } = object;
  const sample = members.length > 0 ? { text, object } : { text: fallback.text, object: fallback };
  const first = sample.object.members[0];
  const last = sample.object.members[sample.object.members.length - 1];
  const opening = first === undefined ? '' : sample.text.slice(sample.object.open, first.start);
  const closing = last === undefined ? sample.text.slice(sample.object.open, sample.object.close) : sample.text.slice(last.end, sample.object.close);
  const separator = usualSeparator(text, object) ?? usualSeparator(fallback.text, fallback) ?? `,${opening}`;
  if (pieces.length === 0) return text.slice(0, object.open) + (members.length === 0 ? text.slice(object.open, object.close) : closing) + text.slice(object.close);
  let inner = opening;
  pieces.forEach((piece, i) => {
    inner += piece.text;
    if (i < pieces.length - 1) inner += piece.separator ?? separator;
  });
  return text.slice(0, object.open) + inner + closing + text.slice(object.close);
}

/** The pieces of an object's members, each with the separator that followed it in the file. */
function piecesOf(text: string, members: readonly Member[]): { member: Member; piece: Piece }[] {
  return members.map((member, i) => ({ member, piece: { text: text.slice(member.start, member.end), separator: i + 1 < members.length ? text.slice(member.end, members[i + 1]!.start) : undefined } }));
}

/** The source with the members of every entry not in `keep` cut out (message and `@key`): what a request sends. */
export function partialJsonDocument(text: string, entries: ReadonlyMap<string, FileEntry>, keep: ReadonlySet<string>): string {
  const object = rootObject(text);
  const dropped = (member: Member): boolean => {
    const key = entryKeyOf(member.key);
    return entries.has(key) && !keep.has(key);
  };
  const pieces = piecesOf(text, object.members).filter(({ member }) => !dropped(member)).map(({ piece }) => piece);
  return rebuild(text, object, pieces, Object.assign({ text }, object));
}

/**
 * The existing target with the answer's entries merged in: a sent message the target has
 * gets the answer's string (and its `@key`, where the target keeps one, the answer's);
 * one it lacks comes in with its `@key` after the target's members of the nearest source
 * entry before it (before the nearest after it, or after the target's last member); a
 * removed entry's members are cut out.
 */
export function mergeJsonEntries(
  existing: string,
  targetEntries: ReadonlyMap<string, FileEntry>,
  answer: string,
  answerEntries: ReadonlyMap<string, FileEntry>,
  sourceOrder: readonly string[],
  sent: readonly string[],
  removed: readonly string[],
): string {
  const target = rootObject(existing);
  // Nothing sent (only removals): no answer to read.
  const answered: RootObject = sent.length === 0 ? { open: 0, close: 0, members: [] } : rootObject(answer);
  const answerMember = new Map(answered.members.map((member) => [member.key, answer.slice(member.start, member.end)]));
  const sentKeys = new Set(sent);
  const removedKeys = new Set(removed);
  // A sent message keeps its key's bytes and gets the answer's string; its `@key`, where the target keeps one, becomes the answer's.
  const replaced = (member: Member): string | undefined => {
    const key = entryKeyOf(member.key);
    if (!sentKeys.has(key)) return undefined;
    if (member.key !== key) return answerMember.get(member.key);
    const into = targetEntries.get(key);
    const from = answerEntries.get(key);
    if (into === undefined || from === undefined) return undefined;
    return existing.slice(member.start, into.region[0]) + from.regionText + existing.slice(into.region[1], member.end);
  };
  // Where each entry's members end in the target, to put a new entry after them.
  const lastIndex = new Map<string, number>();
  const firstIndex = new Map<string, number>();
  target.members.forEach((member, i) => {
    const key = entryKeyOf(member.key);
    if (!targetEntries.has(key)) return;
    lastIndex.set(key, i);
    if (!firstIndex.has(key)) firstIndex.set(key, i);
  });
  const position = new Map(sourceOrder.map((key, i) => [key, i]));
  // New entries by the target member they follow (-1: before the first), in source order.
  const inserts = new Map<number, Piece[]>();
  for (const key of sent) {
    if (targetEntries.has(key)) continue;
    if (!answerMember.has(key)) throw new Error(`the answer has no entry ${JSON.stringify(key)}`);
    const at = position.get(key) ?? sourceOrder.length;
    const before = sourceOrder.slice(0, at).reverse().find((k) => lastIndex.has(k));
    const after = sourceOrder.slice(at + 1).find((k) => firstIndex.has(k));
    const follows = before !== undefined ? lastIndex.get(before)! : after !== undefined ? firstIndex.get(after)! - 1 : target.members.length - 1;
    // The message and its `@key` as the answer lays them out (the separator between them its own when they are neighbours).
    const message = answered.members.findIndex((member) => member.key === key);
    const metadata = answered.members[message + 1]?.key === `@${key}` ? answered.members[message + 1] : undefined;
    const own = metadata === undefined ? undefined : answer.slice(answered.members[message]!.end, metadata.start);
    const texts: Piece[] = [{ text: answerMember.get(key)!, separator: own }];
    if (answerMember.has(`@${key}`)) texts.push({ text: answerMember.get(`@${key}`)!, separator: undefined });
    inserts.set(follows, [...(inserts.get(follows) ?? []), ...texts]);
  }
  const pieces: Piece[] = [];
  const insertAfter = (index: number): void => {
    for (const piece of inserts.get(index) ?? []) pieces.push(piece);
  };
  insertAfter(-1);
  piecesOf(existing, target.members).forEach(({ member, piece }, i) => {
    if (!removedKeys.has(entryKeyOf(member.key)) || !targetEntries.has(entryKeyOf(member.key))) {
      const text = replaced(member);
      pieces.push(text === undefined ? piece : { text, separator: piece.separator });
    }
    insertAfter(i);
  });
  return rebuild(existing, target, pieces, Object.assign({ text: answer }, answered));
}

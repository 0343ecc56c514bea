/**
 * Identical segments requested at the same time are translated once — within one
 * process (docs/decisions/0017-translation-memory.md): the first request to need a key
 * leads and sends it to a model; a request needing the same key meanwhile follows and
 * waits for the leader's validated answer instead of paying for its own. Across
 * processes the table is the only sharing, so two API instances may both pay once.
 *
 * A leader that fails settles with undefined; its followers then translate the key
 * themselves (they may lead for it now).
 */
export type Claim =
  | { readonly leader: true; settle(translation: string | undefined): void }
  | { readonly leader: false; readonly result: Promise<string | undefined> };

/**
 * The keys in flight are spread over this many maps. A V8 Map grows (and shrinks) by
 * rehashing every entry in one step: one map of the 2,000,000 keys of 200,000 segments into
 * 10 targets rehashed ~1,000,000 entries in a single claim, 71–85 ms in a script and most of
 * the costliest turn of that request (docs/benchmarks.md, "The log drained by its worker").
 * Spread over 256, a rehash moves a few thousand entries.
 */
const SHARDS = 256;

/** A shard from the key's last characters: the end of a SHA-256 in hex for memory keys, any string works. */
function shardOf(key: string): number {
  const n = key.length;
  return ((key.charCodeAt(n - 1) * 31 + key.charCodeAt(n - 2)) * 31 + key.charCodeAt(n - 3)) & (SHARDS - 1);
}

export class SingleFlight {
  private readonly shards: (Map<string, Promise<string | undefined>> | undefined)[] = new Array(SHARDS);
  private count = 0;

  /** Leads `key` if nobody does, else follows its leader. A leader must settle exactly once. */
  claim(key: string): Claim {
    const shard = (this.shards[shardOf(key)] ??= new Map());
    const running = shard.get(key);
    if (running) return { leader: false, result: running };
    let resolve!: (translation: string | undefined) => void;
    const result = new Promise<string | undefined>((done) => {
      resolve = done;
    });
    shard.set(key, result);
    this.count++;
    let settled = false;
    return {
      leader: true,
      settle: (translation) => {
        if (settled) return;
        settled = true;
        shard.delete(key);
        this.count--;
        resolve(translation);
      },
    };
  }

  /** Keys being translated now (tests and logs). */
  get size(): number {
    return this.count;
  }

  /** Keys in the fullest of the maps they are spread over: what one rehash may move (tests). */
  get largestShard(): number {
    let largest = 0;
    for (const shard of this.shards) if (shard && shard.size > largest) largest = shard.size;
    return largest;
  }
}

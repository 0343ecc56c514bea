/**
 * What an object literal that starts with a spread costs on this Node's V8, against the
 * same object written other ways (docs/decisions/0043). For each shape, once V8 has
 * optimized it as it does a hot request path: nanoseconds a call, and how many of 1,000
 * consecutive objects got a map (hidden class) other than the one before — a new map per
 * object is what fills the old generation, where maps live until a full collection.
 *
 *   node --allow-natives-syntax --import tsx bench/v8/object-spread.ts [calls=1000000]
 */

const CALLS = Number(process.argv[2] ?? 1_000_000);
const language = { code: 'en', name: 'English', rtl: false };
type Shape = (hint: typeof language | undefined, detections: number[]) => object;

const shapes: Record<string, Shape> = {
  'spread first, then a member': (hint, detections) => ({ ...(hint ? { source: hint } : {}), detections }),
  'spread of an argument, then a member': (hint, detections) => ({ ...hint, detections }),
  'two spreads': (hint, detections) => ({ ...(hint ? { source: hint } : {}), ...(detections ? { detections } : {}) }),
  'a member first, then a spread': (hint, detections) => ({ detections, ...(hint ? { source: hint } : {}) }),
  'written out': (hint, detections) => (hint ? { source: hint, detections } : { detections }),
  'Object.assign': (hint, detections) => Object.assign({}, hint ? { source: hint } : {}, { detections }),
  'a spread alone': (hint) => ({ ...(hint ? { source: hint } : {}) }),
};

/** V8's own answer (a natives call, compiled at run time: TypeScript has no syntax for it). */
let haveSameMap: (a: object, b: object) => boolean;
try {
  haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as typeof haveSameMap;
} catch {
  throw new Error('run with node --allow-natives-syntax');
}

const rows = [];
/** Every object's key count, summed. */
let sink = 0;
for (const [name, make] of Object.entries(shapes)) {
  // Warm up until V8 optimizes the function, as it does a hot request path.
  for (let i = 0; i < 100_000; i++) sink += Object.keys(make(language, [i])).length;
  const started = process.hrtime.bigint();
  for (let i = 0; i < CALLS; i++) sink += Object.keys(make(language, [i])).length;
  const ns = Number(process.hrtime.bigint() - started) / CALLS;
  let newMaps = 0;
  let previous = make(language, [0]);
  for (let i = 1; i <= 1_000; i++) {
    const next = make(language, [i]);
    if (!haveSameMap(previous, next)) newMaps++;
    previous = next;
  }
  rows.push({ shape: name, 'ns a call': Math.round(ns), 'new maps per 1,000 objects': newMaps });
}
console.table(rows);
console.log(`${CALLS.toLocaleString('en')} calls each; node ${process.version}, V8 ${process.versions.v8}`);
// Read, so no call above can be dropped as unused.
if (sink < 0) console.log(sink);

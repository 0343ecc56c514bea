/**
 * Mutated request bodies for the hostile benches (run.ts, mutated-requests.ts): seeds are
 * the hostile shapes at 1, 4 and 16 KiB and ordinary documents; mutations cut, duplicate,
 * flip characters, splice in markup and ICU, nest, change a field's type, drop the format,
 * and now and then break the JSON. Deterministic for a seed, so runs compare.
 */
import { HOSTILE_SHAPES } from '../../test/hostile/shapes.js';

/** A linear congruential generator: `next(n)` is in [0, n). */
export function seededRandom(seed = 42): (n: number) => number {
  let state = seed;
  return (n: number) => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return (state >>> 8) % n;
  };
}

const ORDINARY = [
  '# Guide\n\nRead the [docs](https://example.com/docs) and **enjoy**.\n\n- one\n- two\n',
  '<p>Hello <b>{name}</b>, you have <a href="/inbox">3 messages</a>.</p>',
  '{"save":"Save","cancel":"Cancel","greeting":"Hello, {name}!","nested":{"count":"{n, plural, one {# item} other {# items}}"}}',
  'Hello, %s! You have {{count}} new messages.\n\nSee you soon.',
];
const SEEDS = [...ORDINARY, ...HOSTILE_SHAPES.flatMap((shape) => [1_024, 4_096, 16_384].map((size) => shape.content(size)))];
const SPLICES = ['<b>', '</b>', '<!--', '-->', '{n, plural, one {', '}', '[', ']', '**', '`', '\u0000', '\uD800', '"', '\\', '<script>', '| a |', '> ', '&#', '%1$s', '{{'];
const FORMATS = ['plain', 'markdown', 'json', 'html', undefined, 'yaml', 42];

/** A document of the seeds, mutated one to four times. */
export function mutatedContent(random: (n: number) => number): string {
  let content = SEEDS[random(SEEDS.length)]!;
  for (let n = 1 + random(4); n > 0; n--) {
    const at = random(content.length + 1);
    switch (random(6)) {
      case 0: content = content.slice(0, at); break;
      case 1: content = content.slice(0, at) + content.slice(at, at + 64).repeat(1 + random(200)) + content.slice(at); break;
      case 2: content = content.slice(0, at) + String.fromCharCode(random(0x3000)) + content.slice(at + 1); break;
      case 3: content = content.slice(0, at) + SPLICES[random(SPLICES.length)]!.repeat(1 + random(50)) + content.slice(at); break;
      case 4: content = '['.repeat(random(5_000)) + content; break;
      default: content = content.slice(at) + content.slice(0, at);
    }
  }
  return content;
}

/** A POST /v1/translate body: mutated content, now and then a wrong type, an unknown target or broken JSON. */
export function mutatedTranslateBody(random: (n: number) => number): string {
  const content = mutatedContent(random);
  const body: Record<string, unknown> = { content: random(50) === 0 ? [content] : content, targets: random(20) === 0 ? ['fr', 'xx'] : ['fr'] };
  const format = FORMATS[random(FORMATS.length)];
  if (format !== undefined) body.format = format;
  const text = JSON.stringify(body);
  return random(40) === 0 ? text.slice(0, random(text.length)) : text;
}

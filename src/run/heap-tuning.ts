/**
 * V8 settings the service's processes run with, set before anything is loaded
 * (docs/decisions/0044, 0048). A flag given to node itself (`node --heap-growing-percent=50
 * dist/cli.js …`) wins over the one here.
 *
 * Allocation-site pretenuring is off. V8 watches where objects are allocated and, when
 * enough of one site's objects outlive a young-generation collection, allocates that
 * site's objects directly in the old generation from then on. Under load a request's
 * objects are alive at a collection only because the request is in flight; when many
 * requests were held together at the start (the first ones wait while the language
 * detector loads), that was often enough for V8 to pretenure the request path's sites
 * (in most starts of a series), after which every request's garbage went to the old
 * generation: the heap grew with every collection, young collections took several times
 * longer, and a request cost more CPU. Without pretenuring no start did. The price:
 * reading a 2 MiB document takes a little longer (its long-lived parts are copied once
 * more before they settle). Figures: docs/benchmarks.md, "Figures from code comments".
 *
 * The old generation may grow by HEAP_GROWING_PERCENT over what the last full collection
 * kept before the next one starts. V8's own factor depends on how fast it collects and
 * goes up to 4× for a heap as small as this one: after the start-up's collections had
 * kept ~30 MB it let the old generation fill to ~90 MB with the garbage of requests caught
 * in flight (the first seconds of a start under load are slow, and everything they
 * allocate outlives two young collections), and RSS kept that size. At 25 % a full
 * collection comes sooner and is shorter; under steady load, where little is promoted,
 * they stay rare, and a request costs the same CPU (decision 0048).
 */
import { setFlagsFromString } from 'node:v8';

const HEAP_GROWING_PERCENT = 25;
const V8_FLAGS = ['--no-allocation-site-pretenuring', `--heap-growing-percent=${HEAP_GROWING_PERCENT}`] as const;

export function tuneHeap(): void {
  for (const flag of V8_FLAGS) if (!process.execArgv.some((given) => sameFlag(given, flag))) setFlagsFromString(flag);
}

/** Whether two command-line flags set the same V8 flag (`--no-x` and `--x=1` both set `x`; `_` is `-`). */
function sameFlag(a: string, b: string): boolean {
  const name = (flag: string) => flag.replace(/^--(no-)?/, '').split('=')[0]!.replaceAll('_', '-');
  return name(a) === name(b);
}

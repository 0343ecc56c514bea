/**
 * V8 settings the service's processes run with, set before anything is loaded
 * (docs/decisions/0044).
 *
 * Allocation-site pretenuring is off. V8 watches where objects are allocated and, when
 * enough of one site's objects outlive a young-generation collection, allocates that
 * site's objects directly in the old generation from then on. Under load a request's
 * objects are alive at a collection only because the request is in flight; when many
 * requests were held together at the start (the first ones wait while the language
 * detector loads), that was often enough for V8 to pretenure the request path's sites
 * (4 starts of 4 in one series, 1 of 4 in another), after which every request's
 * garbage went to the old generation: the heap grew ~1 MB per collection to 180–250 MB
 * between full collections, young collections took 2–3 ms instead of ~0.7, and a request
 * cost 20–40 % more CPU. Without pretenuring no start did. The price: reading a 2 MiB document takes ~5–10 %
 * longer (its long-lived parts are copied once more before they settle).
 */
import { setFlagsFromString } from 'node:v8';

const V8_FLAGS = ['--no-allocation-site-pretenuring'] as const;

export function tuneHeap(): void {
  for (const flag of V8_FLAGS) setFlagsFromString(flag);
}

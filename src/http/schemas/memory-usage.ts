/**
 * The usage fields translation memory and glossaries add to every translate, batch and
 * completed-job answer: `cached_segments` always, `glossary_misses` when a glossary applied.
 */
export function memoryUsage(
  counts: { readonly cachedSegments: number; readonly glossaryMisses: number },
  glossaryId: string | undefined,
): { cached_segments: number; glossary_misses?: number } {
  return {
    cached_segments: counts.cachedSegments,
    ...(glossaryId !== undefined ? { glossary_misses: counts.glossaryMisses } : {}),
  };
}

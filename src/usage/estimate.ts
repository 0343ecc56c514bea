/**
 * The free-tier pre-check estimate (spec §8): ceil(content_length / 4) × (targets + 1),
 * where content_length counts UTF-16 code units (docs/contract.md §3.7). A batch sums its items.
 */
export function estimateTokens(contentLength: number, targetCount: number): number {
  return Math.ceil(contentLength / 4) * (targetCount + 1);
}

export function estimateBatchTokens(contents: readonly string[], targetCount: number): number {
  return contents.reduce((sum, content) => sum + estimateTokens(content.length, targetCount), 0);
}

/**
 * `work` over all the items at once (one transaction for a batch); if that fails, over each item alone, so
 * one bad item fails only itself and the others get what they would have had alone. Answers each item's
 * outcome in order. `onBatchFailure` hears why the whole batch failed before the items run alone.
 */
export async function batchOrEach<T, R>(
  items: readonly T[],
  work: (batch: T[]) => Promise<R[]>,
  onBatchFailure?: (e: unknown) => void,
): Promise<Array<PromiseSettledResult<R>>> {
  if (!items.length) return [];
  try {
    return (await work([...items])).map((value) => ({ status: 'fulfilled', value }));
  } catch (e) {
    if (items.length === 1) return [{ status: 'rejected', reason: e }];
    onBatchFailure?.(e);
  }
  return Promise.allSettled(items.map((item) => work([item]).then(([value]) => value)));
}

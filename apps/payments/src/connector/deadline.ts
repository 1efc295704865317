/** Thrown by `withDeadline` when the call has not settled in time. */
export class DeadlineExceeded extends Error {
  constructor(readonly timeoutMs: number) {
    super(`No answer within ${timeoutMs} ms`);
    this.name = 'DeadlineExceeded';
  }
}

/**
 * The call's own outcome if it settles within `timeoutMs`, else a DeadlineExceeded. A promise cannot be
 * cancelled: a late answer is dropped, so the caller must not have acted on the call before it answered.
 */
export async function withDeadline<T>(call: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineExceeded(timeoutMs)), timeoutMs);
  });
  try {
    return await Promise.race([call, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** Resolves after `ms` milliseconds. */
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Polls until `ok(value)`; returns the last value either way, so the assertion after it says what was seen. */
export async function until<T>(fn: () => Promise<T> | T, ok: (v: T) => boolean, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  let v = await fn();
  while (!ok(v) && Date.now() < deadline) {
    await sleep(50);
    v = await fn();
  }
  return v;
}

/** Polls until `check` answers true, or fails after `timeoutMs` naming `what`. */
export async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await sleep(50);
  }
  throw new Error(`timed out waiting until ${what}`);
}

/**
 * Calls `tick` every `everyMs` while `work` runs, and stops when it settles: a timer that belongs to one
 * operation (a lease renewed while its batch is out, idle connections closed while a server drains), not a
 * background loop of the app (those extend PeriodicLoop).
 */
export async function repeatDuring<T>(everyMs: number, tick: () => void, work: () => Promise<T>): Promise<T> {
  const timer = setInterval(tick, everyMs);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

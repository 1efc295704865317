/** The error code each request was answered with, for the hooks that run after the answer (onResponse). */
const answered = new WeakMap<object, string>();

export function recordAnsweredError(request: object, code: string): void {
  answered.set(request, code);
}

/** The code of the error envelope the request was answered with, if it was answered with one. */
export function answeredErrorOf(request: object): string | undefined {
  return answered.get(request);
}

// Waiting for an event, not for a guessed time: a loaded machine makes every guess short.

/**
 * Resolves once `condition` holds, checked every few milliseconds. The limit only turns a hang
 * into a message naming `what`; it is far longer than any event a test waits for takes.
 */
export async function until(condition: () => boolean, what = "the condition", limitMs = 30_000): Promise<void> {
  const limit = Date.now() + limitMs;
  while (!condition()) {
    if (Date.now() > limit) throw new Error(`${what} did not happen within ${limitMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Whether `requests` hold a write (POST/PUT/PATCH) to `path` and a GET after it: the plugin is polling its wait. */
export function pollingAfterWrite(requests: ReadonlyArray<{ method: string; path: string }>, path: RegExp): boolean {
  const write = requests.findIndex((r) => r.method !== "GET" && r.method !== "DELETE" && path.test(r.path));
  return write >= 0 && requests.slice(write + 1).some((r) => r.method === "GET");
}

import { raceExit, type Child } from './child';

/** Polls `url` until it answers 2xx, the child dies, or `timeoutMs` passes. */
export function waitForUrl(child: Child, url: string, timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const poll = async (): Promise<void> => {
    for (;;) {
      const ok = await fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
        (res) => res.ok,
        () => false,
      );
      if (ok) return;
      if (Date.now() > deadline) throw new Error(`${child.name} did not answer ${url} within ${timeoutMs / 1000} s. Its last output:\n${child.tail()}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  return raceExit(child, poll());
}

/** Waits for the child to print a JSON line that `pick` accepts, and returns what `pick` made of it. */
export function waitForJsonLine<T>(child: Child, pick: (value: any) => T | undefined, timeoutMs = 30_000): Promise<T> {
  let stop = () => {};
  let timer: NodeJS.Timeout | undefined;
  const found = new Promise<T>((resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${child.name} printed no ready line within ${timeoutMs / 1000} s. Its last output:\n${child.tail()}`)), timeoutMs);
    stop = child.onLine((line) => {
      if (!line.startsWith('{')) return;
      try {
        const picked = pick(JSON.parse(line));
        if (picked !== undefined) resolve(picked);
      } catch {
        // not JSON after all: a log line
      }
    });
  });
  return raceExit(child, found).finally(() => {
    stop();
    clearTimeout(timer);
  });
}

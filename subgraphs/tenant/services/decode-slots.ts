import { Sema } from 'async-sema';

/**
 * At most `size` tasks at once, later ones waiting in arrival order (async-sema's semaphore).
 * Nothing is refused, so a burst is slowed down, never failed.
 */
export class Slots {
  private readonly sema: Sema;

  constructor(size: number) {
    this.sema = new Sema(size);
  }

  /** Runs `task` once a slot is free and frees the slot when it settles. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    await this.sema.acquire();
    try {
      return await task();
    } finally {
      this.sema.release();
    }
  }
}

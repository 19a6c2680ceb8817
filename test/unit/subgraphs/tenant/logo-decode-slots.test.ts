import { Slots } from '../../../../subgraphs/tenant/services/decode-slots';

describe('the slots that bound logo decodes', () => {
  it('runs at most `size` tasks at once; a burst waits its turn in order and none fails', async () => {
    const slots = new Slots(2);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const release: (() => void)[] = [];
    const results = Array.from({ length: 7 }, (_, i) =>
      slots.run(async () => {
        started.push(i);
        most = Math.max(most, ++running);
        await new Promise<void>((resolve) => release.push(resolve));
        running--;
        return i;
      }),
    );
    // Let the queue settle, then release tasks one at a time, checking that nobody jumped the line.
    for (let round = 0; round < 7; round++) {
      await new Promise((resolve) => setImmediate(resolve));
      expect(running).toBeLessThanOrEqual(2);
      release.shift()!();
    }
    expect(await Promise.all(results)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(most).toBe(2);
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('frees the slot of a task that throws', async () => {
    const slots = new Slots(1);
    await expect(slots.run(() => Promise.reject(new Error('broken image')))).rejects.toThrow('broken image');
    await expect(slots.run(async () => 'next')).resolves.toBe('next');
  });
});

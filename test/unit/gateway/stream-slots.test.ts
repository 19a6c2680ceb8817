import { StreamSlots } from '../../../gateway/graphql/stream-slots';

describe('StreamSlots', () => {
  it('caps each tenant on its own, and a slot given back (once, however often released) can be taken again', () => {
    const slots = new StreamSlots(2);
    const first = slots.take('a')!;
    const second = slots.take('a')!;
    expect(slots.take('a')).toBeNull();
    expect(slots.take('b')).not.toBeNull();
    first();
    first();
    expect(slots.count('a')).toBe(1);
    expect(slots.take('a')).not.toBeNull();
    expect(slots.take('a')).toBeNull();
    second();
    expect(slots.count('a')).toBe(1);
  });
});

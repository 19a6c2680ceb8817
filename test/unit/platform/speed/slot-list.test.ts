import { SlotList } from '../../../../platform/speed/slot-list';

describe('SlotList', () => {
  it('holds what was added until it is removed, and reuses emptied slots', () => {
    const list = new SlotList<string>();
    const a = list.add('a');
    const b = list.add('b');
    const c = list.add('c');
    expect([...list]).toEqual(['a', 'b', 'c']);
    expect(list.size).toBe(3);
    list.remove(b);
    expect(list.get(b)).toBeUndefined();
    expect(list.get(a)).toBe('a');
    expect([...list]).toEqual(['a', 'c']);
    expect(list.size).toBe(2);
    // The emptied slot is taken again before the array grows.
    expect(list.add('d')).toBe(b);
    expect([...list]).toEqual(['a', 'd', 'c']);
    expect(c).toBe(2);
  });

  it('ignores a second removal of the same slot (a response closes once, but a caller may not know)', () => {
    const list = new SlotList<number>();
    const slot = list.add(1);
    list.remove(slot);
    list.remove(slot);
    expect(list.size).toBe(0);
    // One free slot, not two: the next two adds take different slots.
    expect(list.add(2)).not.toBe(list.add(3));
  });

  it('lets items be removed while it is iterated (a drain destroying event streams)', () => {
    const list = new SlotList<string>();
    const slots = ['a', 'b', 'c', 'd'].map((item) => list.add(item));
    const seen: string[] = [];
    for (const item of list) {
      seen.push(item);
      if (item === 'a') list.remove(slots[1]);
      list.remove(slots[['a', 'b', 'c', 'd'].indexOf(item)]);
    }
    expect(seen).toEqual(['a', 'c', 'd']);
    expect(list.size).toBe(0);
  });
});

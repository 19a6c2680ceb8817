import { ValidationError } from '../../../../schema/errors';
import { decodeCursor, keysetCursor, offsetCursor } from '../../../../schema/list-cursor';
import { readSlice, sqlCondition, sqlOrder, type SliceQuery } from '../../../../subgraphs/common/keyset';
import { listWindow, type SortKey } from '../../../../subgraphs/common/list-window';

type Row = { name: string | null; id: string };
const ID = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const keys = (direction: 'asc' | 'desc', nullsLast?: boolean): SortKey<Row>[] => [
  { field: 'name', direction, kind: 'text', nullable: true, nullsLast, value: (row) => row.name },
  { field: 'id', direction, kind: 'uuid', value: (row) => row.id },
];

describe('list cursors', () => {
  it('round-trips offsets and keysets, and reads anything else as no cursor', () => {
    expect(decodeCursor(offsetCursor(40))).toEqual({ kind: 'offset', offset: 40 });
    expect(decodeCursor(keysetCursor(['Ada', new Date('2026-01-02T03:04:05.678Z'), null]))).toEqual({ kind: 'keyset', values: ['Ada', '2026-01-02T03:04:05.678Z', null] });
    for (const text of ['', 'not a cursor', Buffer.from('offset:-1').toString('base64url'), Buffer.from('offset:01').toString('base64url'), Buffer.from('k:{"a":1}').toString('base64url')]) expect(decodeCursor(text)).toBeNull();
  });

  it("refuses first with last, counts out of 0..100 and another list's cursor, every problem at once", () => {
    const refused = (() => {
      try {
        listWindow({ first: 101, last: -1, after: keysetCursor([1]) }, keys('asc') as SortKey<never>[]);
      } catch (error) {
        return (error as ValidationError).issues.map((issue) => [issue.type, issue.loc.join('.')]);
      }
    })();
    expect(refused).toEqual([['value_error', 'last'], ['less_than_equal', 'first'], ['greater_than_equal', 'last'], ['value_error', 'after']]);
    expect(listWindow({}, keys('asc') as SortKey<never>[])).toMatchObject({ limit: 20, backward: false, offset: 0 });
  });

  it('writes the row comparison out per direction, NULLs where the order puts them', () => {
    const render = (direction: 'asc' | 'desc', values: unknown[], nullsLast?: boolean) => {
      const window = listWindow({ after: keysetCursor(values) }, keys(direction, nullsLast) as SortKey<never>[]);
      let query!: SliceQuery;
      void readSlice(window, keys(direction, nullsLast), async (q) => ((query = q), []), async () => 0);
      const params: unknown[] = [];
      return [sqlCondition(query.conditions[0], params), params, sqlOrder(keys(direction, nullsLast) as SortKey<never>[], query.reverse)];
    };
    expect(render('asc', ['B', ID(1)])).toEqual([`(((name > ? or name is null)) or (name = ? and id > ?))`, ['B', 'B', ID(1)], 'name asc nulls last, id asc']);
    expect(render('desc', ['B', ID(1)])).toEqual([`((name < ?) or (name = ? and id < ?))`, ['B', 'B', ID(1)], 'name desc nulls first, id desc']);
    expect(render('desc', [null, ID(1)])).toEqual([`((name is not null) or (name is null and id < ?))`, [ID(1)], 'name desc nulls first, id desc']);
    expect(render('desc', [null, ID(1)], true)).toEqual([`((name is null and id < ?))`, [ID(1)], 'name desc nulls last, id desc']);
  });
});

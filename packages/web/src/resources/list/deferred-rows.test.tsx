import { describe, expect, it } from 'vitest';
import { DEFER_ABOVE, FIRST_ROWS, firstRows, nextRows, STEP_ROWS, wholePageSelection } from './deferred-rows.tsx';

describe('rows of a big page drawn in steps', () => {
  it('draws small pages at once, big ones from a screenful', () => {
    expect(firstRows(20)).toBe(20);
    expect(firstRows(DEFER_ABOVE)).toBe(DEFER_ABOVE);
    expect(firstRows(200)).toBe(FIRST_ROWS);
  });

  it('reaches every row of a 200-row page, never beyond', () => {
    let drawn = firstRows(200);
    let steps = 0;
    while (drawn < 200) {
      const next = nextRows(drawn, 200);
      expect(next - drawn).toBeLessThanOrEqual(STEP_ROWS);
      expect(next).toBeGreaterThan(drawn);
      drawn = next;
      steps++;
    }
    expect(drawn).toBe(200);
    expect(steps).toBe(Math.ceil((200 - FIRST_ROWS) / STEP_ROWS));
  });
});

describe('select-all on a page still being drawn', () => {
  const page = [1, 2, 3, 4, 5, 6];
  const drawn = [1, 2];

  it('selects the whole page, keeping what other pages had selected', () => {
    // The table's own answer to the select-all box: the drawn rows added to the selection.
    expect(wholePageSelection([99, 1, 2], drawn, page).sort((a, b) => Number(a) - Number(b))).toEqual([1, 2, 3, 4, 5, 6, 99]);
  });

  it('clears the whole page, again keeping other pages\' keys', () => {
    // Rows 3 and 5 were selected one by one (drawn later, or before a redraw); select-none clears them too.
    expect(wholePageSelection([99, 3, 5], drawn, page)).toEqual([99]);
  });
});

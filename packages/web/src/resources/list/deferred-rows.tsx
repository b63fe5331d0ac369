import { startTransition, useEffect, useMemo, useState, type Key } from 'react';

/**
 * Big pages (200 rows, and the spec's larger lists) draw their rows in steps: the first screenful at once,
 * the rest in following frames as interruptible transitions, so the page shows quickly and never blocks
 * input for long. Sorting and filtering are the server's, so they are unchanged; select-all takes the whole page
 * even before every row is drawn (wholePageSelection). Small pages draw as they always did.
 */
export const DEFER_ABOVE = 50;
/** Rows drawn at once: more than a tall window (1300 pixels) holds. */
export const FIRST_ROWS = 24;
/** Rows added per frame after the first. */
export const STEP_ROWS = 40;

/** Rows to draw at once for a page of `total` rows. */
export function firstRows(total: number): number {
  return total > DEFER_ABOVE ? FIRST_ROWS : total;
}

/** Rows drawn after one more step. */
export function nextRows(drawn: number, total: number): number {
  return Math.min(total, drawn + STEP_ROWS);
}

/** How many of `rows` to draw now; grows a step per frame until all are, and starts over for new rows. */
export function useDrawnRows(rows: readonly unknown[]): number {
  const [state, setState] = useState({ rows, drawn: firstRows(rows.length) });
  let drawn = state.drawn;
  if (state.rows !== rows) {
    // New rows (a page, a sort, a filter): derived during render, so the old count never applies to them.
    drawn = firstRows(rows.length);
    setState({ rows, drawn });
  }
  useEffect(() => {
    if (drawn >= rows.length) return;
    // After the browser has painted what is drawn; a transition, so a click or a key press goes first.
    const frame = requestAnimationFrame(() =>
      startTransition(() => setState((s) => (s.rows === rows ? { rows, drawn: nextRows(s.drawn, rows.length) } : s))),
    );
    return () => cancelAnimationFrame(frame);
  }, [rows, drawn]);
  return drawn;
}

/**
 * The rows a table is given while a big page is still being drawn: the first `drawn`, so that the rows not drawn
 * yet cost nothing at all (the table builds each row it is given, shown or not).
 */
export function useRowsToDraw<T>(rows: T[]): T[] {
  const drawn = useDrawnRows(rows);
  return useMemo(() => (drawn < rows.length ? rows.slice(0, drawn) : rows), [rows, drawn]);
}

/**
 * The selection after a select-all (or select-none) box click on a page still being drawn: the table knows only the
 * rows drawn so far, the operator means the whole page. Keys of other pages are kept as they were.
 */
export function wholePageSelection(keys: readonly Key[], drawnKeys: readonly Key[], pageKeys: readonly Key[]): Key[] {
  const chosen = new Set(keys);
  if (drawnKeys.some((key) => chosen.has(key))) return [...new Set([...keys, ...pageKeys])];
  const page = new Set(pageKeys);
  return keys.filter((key) => !page.has(key));
}

import { createContext, startTransition, useContext, useEffect, useState, type HTMLAttributes } from 'react';

/**
 * Big pages (200 rows, and the spec's larger lists) draw their rows in steps: the first screenful at once,
 * the rest in following frames as interruptible transitions, so the page shows quickly and never blocks
 * input for long. Every row stays in the table's data, so sorting, selection (select all included) and
 * row keys are unchanged; a row not drawn yet is simply not in the DOM. Small pages draw as they always did.
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

const Drawn = createContext(Number.POSITIVE_INFINITY);
export const DrawnRows = Drawn.Provider;

type RowProps = HTMLAttributes<HTMLTableRowElement> & { 'data-index'?: number };

/** The table's row: nothing (its cells are not rendered) until its turn comes. */
function DeferredRow({ 'data-index': index, ...props }: RowProps) {
  const drawn = useContext(Drawn);
  return index !== undefined && index >= drawn ? null : <tr {...props} />;
}

/** Table props that defer rows; the row's index reaches DeferredRow through onRow. */
export const deferredTable = {
  components: { body: { row: DeferredRow } },
  onRow: (_row: unknown, index?: number) => ({ 'data-index': index }) as HTMLAttributes<HTMLElement>,
};

import { containsPattern, type Filter } from '../list-query.ts';

/**
 * The cp_no filter of the OCPP logs (cp_requests, millions of rows a month) and the session lists:
 * a "contains" match on their own cp_no column would read every row (no index serves ILIKE '%x%'
 * but a trigram one, and a trigram index over a column of a few hundred distinct values matches a
 * whole charger's history at once). The number is matched in cps instead (a few hundred rows; soft-
 * deleted chargers too, their history stays listed), and the rows are read through the
 * (cp_id, id) index every one of these tables has. The row's own cp_no, the number the charger had
 * at the time, must match as well, so that every row shown contains what was asked for.
 */
export function cpNoViaChargers(f: Filter, add: (value: unknown) => string): string {
  if (f.kind !== 'text') throw new Error(`cp_no: a ${f.kind} filter is not a charger number match`);
  const p = add(containsPattern(f.value));
  return `t.cp_id IN (SELECT c.cp_id FROM cps c WHERE c.cp_no ILIKE ${p}) AND t.cp_no ILIKE ${p}`;
}

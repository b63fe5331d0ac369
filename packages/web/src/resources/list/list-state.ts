import dayjs from 'dayjs';
import { DEFAULT_PAGE_SIZES, type ColumnDef, type ListResponse, type ResourceDef } from '@ev/core';
import { api, type Query } from '../../api/client.ts';
import { loadJson, saveJson } from '../../app/layout/storage.ts';

/** A filter value: text, one option, several options, 0/1, or a [first day, last day] range as YYYY-MM-DD. */
export type FilterValue = string | number | (string | number)[];

export interface ListState {
  page: number; // zero-based, as sent
  size: number;
  sortBy: string;
  order: 'asc' | 'desc';
  filters: Record<string, FilterValue>;
  trash: boolean;
  /** Columns hidden by default (hiddenInList) that the user chose to show. */
  shown: string[];
}

export const pageSizesOf = (def: ResourceDef) => def.pageSizes ?? DEFAULT_PAGE_SIZES;

export function initialState(def: ResourceDef): ListState {
  const sort = def.defaultSort ?? { field: def.idField, order: 'desc' as const };
  return {
    page: 0,
    size: def.defaultPageSize ?? pageSizesOf(def)[0],
    sortBy: sort.field,
    order: sort.order,
    filters: { ...(def.defaultFilters ?? {}) },
    trash: false,
    shown: [],
  };
}

/**
 * The column a search term (/{key}/{term}/search) filters: the definition's title column when it
 * has a text filter (cp_no of chargers, address of sites), otherwise the first text-filter column.
 * `allowed` leaves out columns the user may not see.
 */
export function searchColumn(def: ResourceDef, allowed: (col: ColumnDef) => boolean = () => true): ColumnDef | undefined {
  const searchable = (c: ColumnDef | undefined): c is ColumnDef => !!c && c.filter === 'text' && !c.viewOnly && allowed(c);
  const title = def.columns.find((c) => c.field === def.titleField);
  return searchable(title) ? title : def.columns.find(searchable);
}

/**
 * The list opened by a search: the default filters plus the term as an ordinary filter of the
 * search column (a removable tag), on the first page; paging, sort and columns kept from `from`
 * (the saved state). A hidden-by-default search column is shown. No term or no column: the defaults.
 */
export function searchState(
  def: ResourceDef,
  term: string,
  from: ListState = initialState(def),
  allowed?: (col: ColumnDef) => boolean,
): ListState {
  const state: ListState = { ...from, page: 0, trash: false, filters: { ...initialState(def).filters } };
  const col = searchColumn(def, allowed);
  const value = term.trim();
  if (!col || !value) return state;
  return {
    ...state,
    filters: { ...state.filters, [col.field]: value },
    shown: col.hiddenInList && !state.shown.includes(col.field) ? [...state.shown, col.field] : state.shown,
  };
}

const storageKey = (key: string) => `list:${key}`;

/** The last page and its parameters per resource survive a reload (spec part 1 §7). */
export function loadState(def: ResourceDef): ListState {
  const base = initialState(def);
  const saved = loadJson<Partial<ListState> | null>(storageKey(def.key), null);
  if (!saved) return base;
  const known = (field: string) => def.columns.some((c) => c.field === field && c.filter);
  return {
    ...base,
    ...saved,
    // A definition may have changed since the state was saved: drop what it no longer knows.
    size: pageSizesOf(def).includes(saved.size ?? -1) ? saved.size! : base.size,
    sortBy: def.columns.some((c) => c.field === saved.sortBy && c.sortable) ? saved.sortBy! : base.sortBy,
    filters: Object.fromEntries(Object.entries(saved.filters ?? {}).filter(([f]) => known(f))),
    trash: !!def.softDelete && !!saved.trash,
    shown: (saved.shown ?? []).filter((f) => def.columns.some((c) => c.field === f && c.hiddenInList)),
  };
}

export function saveState(key: string, state: ListState) {
  saveJson(storageKey(key), state);
}

/** Date ranges go out as two unix seconds: start of the first day, start of the day after the last (spec §5). */
export function dateRangeParam(value: FilterValue): number[] | undefined {
  if (!Array.isArray(value) || value.length !== 2) return undefined;
  const [from, to] = value.map((v) => dayjs(String(v)));
  if (!from.isValid() || !to.isValid()) return undefined;
  return [from.startOf('day').unix(), to.add(1, 'day').startOf('day').unix()];
}

export function filterParams(columns: ColumnDef[], filters: Record<string, FilterValue>): Query {
  const query: Query = {};
  for (const [field, value] of Object.entries(filters)) {
    const col = columns.find((c) => c.field === field);
    if (!col?.filter) continue;
    query[field] = col.filter === 'dateRange' ? dateRangeParam(value) : value;
  }
  return query;
}

/**
 * Query of GET /api/{key}: paging, sorting, trash (soft-delete resources only) and the column filters.
 * A default filter the user removed is sent empty: left out, the server would apply it again.
 */
export function listQuery(def: ResourceDef, state: ListState, fixed: Record<string, FilterValue> = {}): Query {
  const cleared = Object.fromEntries(Object.keys(def.defaultFilters ?? {}).map((field) => [field, '']));
  return {
    ...cleared,
    size: state.size,
    page: state.page,
    sort_by: state.sortBy,
    order: state.order,
    ...(def.softDelete ? { trash: state.trash ? 1 : 0 } : {}),
    ...filterParams(def.columns, { ...state.filters, ...fixed }),
  };
}

/** The list's call for a state, as a query (key and fetch): the list's own, and the one asked for ahead when the portal opens on it. */
export function listCall<Row>(def: ResourceDef, state: ListState, fixed?: Record<string, FilterValue>) {
  const query = listQuery(def, state, fixed);
  return { queryKey: ['list', def.key, query] as const, queryFn: () => api.get<ListResponse<Row>>(`/${def.key}`, query) };
}

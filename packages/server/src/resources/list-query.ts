import { DEFAULT_PAGE_SIZES, LIST_PAGE_CAP, MAX_PAGE_SIZE, STATIC_OPTIONS, type ColumnDef, type ResourceDef, type ValueType } from '@ev/core';
import { badRequest } from '../http/errors.ts';

export type Filter =
  | { kind: 'text'; column: ColumnDef; value: string }
  /** value null: the column is empty (locId=0, "no site"). */
  | { kind: 'select'; column: ColumnDef; value: string | number | null }
  | { kind: 'multiselect'; column: ColumnDef; values: (string | number)[] }
  | { kind: 'boolean'; column: ColumnDef; value: 0 | 1 }
  | { kind: 'dateRange'; column: ColumnDef; from: number; to: number };

export interface ListQuery {
  size: number;
  /** The size asked for, when it was above LIST_PAGE_CAP (size is then the cap). */
  sizeAsked?: number;
  page: number;
  sortBy: string;
  order: 'asc' | 'desc';
  trash: boolean;
  filters: Filter[];
  /** The site column answered as {loc_id, address} (ResourceDef.siteAsReference, asked with locId). */
  siteReference?: boolean;
}

/** Parameters every list accepts besides the column filters; an export (every row) takes no size or page. */
export const LIST_PARAMS = ['size', 'page', 'sort_by', 'order', 'trash'] as const;
const EXPORT_PARAMS = new Set(['sort_by', 'order', 'trash']);

export type Query = Record<string, string | string[] | undefined>;

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (m) => `\\${m}`);

/** The ILIKE pattern of a text filter: contains the value, % and _ taken literally. */
export const containsPattern = (value: string) => `%${escapeLike(value)}%`;

export const asList = (v: string | string[] | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

function single(query: Query, name: string): string | undefined {
  const values = asList(query[name]);
  if (values.length > 1) throw badRequest(`Parameter ${name} is given more than once`, { [name]: 'invalid' });
  return values[0];
}

function intParam(query: Query, name: string, fallback: number, min: number, max: number): number {
  const raw = single(query, name);
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw badRequest(`Parameter ${name} must be an integer from ${min} to ${max}`, { [name]: 'invalid' });
  }
  return n;
}

/** Parses one filter value to the column's type; throws a 400 naming the parameter when it does not fit. */
export function parseValue(column: ColumnDef, raw: string, type: ValueType = column.type): string | number {
  if (type === 'int' || type === 'intArray' || type === 'bool') {
    const n = Number(raw);
    if (raw.trim() === '' || !Number.isInteger(n) || Math.abs(n) > 2_147_483_647) {
      throw badRequest(`Parameter ${column.field} must be an integer`, { [column.field]: 'invalid' });
    }
    return n;
  }
  if (type === 'float') {
    const n = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(n)) throw badRequest(`Parameter ${column.field} must be a number`, { [column.field]: 'invalid' });
    return n;
  }
  if (raw.length > 200) throw badRequest(`Parameter ${column.field} is too long`, { [column.field]: 'invalid' });
  if (raw.includes('\u0000')) throw badRequest(`Parameter ${column.field} holds a NUL character`, { [column.field]: 'invalid' });
  return raw;
}

const fixedOptions = (column: ColumnDef) => (column.options && Object.hasOwn(STATIC_OPTIONS, column.options) ? STATIC_OPTIONS[column.options] : undefined);

/** What a select filter over a fixed option list accepts: each value, and each English label (the spec's calls name request types by action). */
export function optionParamValues(column: ColumnDef): string[] | undefined {
  const list = fixedOptions(column);
  return list && [...new Set([...list.map((o) => String(o.value)), ...list.map((o) => o.label.en)])];
}

/**
 * A select value: the stored value, or for a column with a fixed option list one of its values or
 * an option's English label (type=MeterValues); anything else in a fixed list is a 400.
 */
function optionValue(column: ColumnDef, raw: string): string | number {
  const list = fixedOptions(column);
  if (!list) return parseValue(column, raw);
  const hit = list.find((o) => String(o.value) === raw) ?? list.find((o) => o.label.en === raw);
  if (!hit) throw badRequest(`Parameter ${column.field} is not one of the ${column.options} values`, { [column.field]: 'invalid' });
  return hit.value;
}

function parseFilter(column: ColumnDef, values: string[]): Filter | undefined {
  const name = column.field;
  // An empty value clears the filter, including a default one (the list shows everything).
  if (values.length === 0 || values.every((v) => v === '')) return undefined;
  switch (column.filter) {
    case 'text':
      if (values.length > 1) throw badRequest(`Parameter ${name} is given more than once`, { [name]: 'invalid' });
      return { kind: 'text', column, value: String(parseValue(column, values[0], 'text')) };
    case 'select':
      if (values.length > 1) throw badRequest(`Parameter ${name} is given more than once`, { [name]: 'invalid' });
      return { kind: 'select', column, value: optionValue(column, values[0]) };
    case 'multiselect': {
      const list = values.flatMap((v) => v.split(',')).filter((v) => v !== '');
      if (list.length > 1000) throw badRequest(`Parameter ${name} has too many values`, { [name]: 'invalid' });
      return { kind: 'multiselect', column, values: list.map((v) => optionValue(column, v)) };
    }
    case 'boolean': {
      if (values.length > 1 || !['0', '1'].includes(values[0])) throw badRequest(`Parameter ${name} must be 0 or 1`, { [name]: 'invalid' });
      return { kind: 'boolean', column, value: values[0] === '1' ? 1 : 0 };
    }
    case 'dateRange': {
      const parts = values.flatMap((v) => v.split(','));
      const [from, to] = parts.map(Number);
      if (parts.length !== 2 || !Number.isInteger(from) || !Number.isInteger(to) || from > to || from < 0 || to > 32503680000) {
        throw badRequest(`Parameter ${name} must be two unix times in seconds, start then end`, { [name]: 'invalid' });
      }
      return { kind: 'dateRange', column, from, to };
    }
    default:
      throw badRequest(`Column ${name} cannot be filtered`, { [name]: 'invalid' });
  }
}

/**
 * Reads a list request: paging, sort, trash and one parameter per filterable column. Anything
 * else is a 400 naming the parameter. Default filters apply when their parameter is absent.
 * What this accepts, resources/api-doc.ts documents (listParameters): keep the two together.
 */
export function parseListQuery(def: ResourceDef, given: Query, visible: (c: ColumnDef) => boolean, opts: { export?: boolean } = {}): ListQuery {
  const { query, noSite } = resolveAliases(def, given);
  const filterable = new Map(def.columns.filter((c) => c.filter && visible(c)).map((c) => [c.field, c]));
  const known = opts.export ? EXPORT_PARAMS : new Set<string>(LIST_PARAMS);
  for (const name of Object.keys(query)) {
    if (!known.has(name) && !filterable.has(name)) {
      throw badRequest(`Unknown parameter: ${name}`, { [name]: 'unknown_field' });
    }
  }
  const sizes = def.pageSizes ?? DEFAULT_PAGE_SIZES;
  const asked = intParam(query, 'size', def.defaultPageSize ?? sizes[0], 1, MAX_PAGE_SIZE);
  const size = Math.min(asked, LIST_PAGE_CAP);
  const page = intParam(query, 'page', 0, 0, 10_000_000);

  const sortBy = single(query, 'sort_by') || def.defaultSort?.field || def.idField;
  const sortColumn = def.columns.find((c) => c.field === sortBy);
  if (sortBy !== def.idField && (!sortColumn?.sortable || !visible(sortColumn))) {
    throw badRequest(`Cannot sort by ${sortBy}`, { sort_by: 'invalid' });
  }
  const orderRaw = (single(query, 'order') || def.defaultSort?.order || 'desc').toLowerCase();
  if (orderRaw !== 'asc' && orderRaw !== 'desc') throw badRequest('Parameter order must be asc or desc', { order: 'invalid' });

  const trashRaw = single(query, 'trash') ?? '0';
  if (trashRaw !== '0' && trashRaw !== '1') throw badRequest('Parameter trash must be 0 or 1', { trash: 'invalid' });
  if (trashRaw === '1' && !def.softDelete) throw badRequest(`${def.key} has no trash`, { trash: 'invalid' });

  const filters: Filter[] = [];
  for (const [name, column] of filterable) {
    if (name === noSite) {
      filters.push({ kind: 'select', column, value: null });
      continue;
    }
    const values = query[name] === undefined ? defaultValues(def, name) : asList(query[name]);
    const f = parseFilter(column, values);
    if (f) filters.push(f);
  }
  const siteReference = !!def.siteAsReference && given.locId !== undefined;
  return { size, ...(asked > size ? { sizeAsked: asked } : {}), page, sortBy, order: orderRaw, trash: trashRaw === '1', filters, ...(siteReference ? { siteReference } : {}) };
}

/**
 * The spec's other names for filter parameters (the column each stands for): the definition's
 * paramAliases, and locId for the site column where that column is a filter.
 */
export function paramAliases(def: ResourceDef): Record<string, string> {
  const siteFilter = def.site?.column && def.columns.some((c) => c.field === def.site!.column && c.filter);
  return { ...def.paramAliases, ...(siteFilter ? { locId: def.site!.column! } : {}) };
}

/**
 * The spec's other names for filter parameters, turned into the column names (paramAliases). The
 * spec's app sends locId=-1 when no site is chosen: every site the user may see (no filter);
 * locId=0 asks for records of no site (noSite: the column that must then be empty).
 */
function resolveAliases(def: ResourceDef, given: Query): { query: Query; noSite?: string } {
  const aliases = paramAliases(def);
  const query: Query = {};
  let noSite: string | undefined;
  for (const [name, value] of Object.entries(given)) {
    const field = Object.hasOwn(aliases, name) ? aliases[name] : name;
    const site = name === 'locId' && Object.hasOwn(aliases, name) ? asList(value).join() : undefined;
    if (site === '-1') continue;
    if (site === '0') {
      noSite = field;
      continue;
    }
    query[field] = query[field] === undefined ? value : [...asList(query[field]), ...asList(value)];
  }
  // The spec's option calls send enable_flag=1 to every option resource: one without such a flag
  // (nor another column for it in paramAliases) has every record enabled.
  if (query.enable_flag !== undefined && !def.columns.some((c) => c.field === 'enable_flag')) {
    if (!['1', ''].includes(single(query, 'enable_flag')!)) {
      throw badRequest(`${def.key} has no enable flag: every record is enabled, enable_flag may only be 1`, { enable_flag: 'invalid' });
    }
    delete query.enable_flag;
  }
  return { query, noSite };
}

function defaultValues(def: ResourceDef, name: string): string[] {
  const d = def.defaultFilters?.[name];
  if (d === undefined) return [];
  return (Array.isArray(d) ? d : [d]).map(String);
}

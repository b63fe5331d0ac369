import type { ColumnDef, DisplayType, FieldDef, InputKind, ValueType } from '../resource.ts';

/** Shorthands that keep definitions one line per column or field. */
export const col = (field: string, display: DisplayType, type: ValueType, extra: Partial<ColumnDef> = {}): ColumnDef => ({
  field,
  display,
  type,
  ...extra,
});

export const idCol = (field: string): ColumnDef => col(field, 'number', 'int', { sortable: true });
export const textCol = (field: string, extra: Partial<ColumnDef> = {}) =>
  col(field, 'text', 'text', { sortable: true, filter: 'text', ...extra });
export const intCol = (field: string, extra: Partial<ColumnDef> = {}) => col(field, 'number', 'int', { sortable: true, ...extra });
export const floatCol = (field: string, extra: Partial<ColumnDef> = {}) => col(field, 'number', 'float', { sortable: true, ...extra });
export const boolCol = (field: string, extra: Partial<ColumnDef> = {}) =>
  col(field, 'boolean', 'bool', { sortable: true, filter: 'boolean', ...extra });
export const dateCol = (field: string, extra: Partial<ColumnDef> = {}) =>
  col(field, 'datetime', 'timestamp', { sortable: true, filter: 'dateRange', ...extra });
export const selectCol = (field: string, options: string, extra: Partial<ColumnDef> = {}) =>
  col(field, 'enum', 'int', { sortable: true, filter: 'select', options, ...extra });

export const fld = (field: string, input: InputKind, type: ValueType, extra: Partial<FieldDef> = {}): FieldDef => ({
  field,
  input,
  type,
  ...extra,
});
export const textFld = (field: string, extra: Partial<FieldDef> = {}) => fld(field, 'text', 'text', { maxLength: 255, ...extra });
export const intFld = (field: string, extra: Partial<FieldDef> = {}) => fld(field, 'number', 'int', extra);
export const floatFld = (field: string, extra: Partial<FieldDef> = {}) => fld(field, 'number', 'float', extra);
export const boolFld = (field: string, extra: Partial<FieldDef> = {}) => fld(field, 'boolean', 'bool', extra);
export const selectFld = (field: string, options: string, extra: Partial<FieldDef> = {}) =>
  fld(field, 'select', 'int', { options, ...extra });

import type { TableColumnType as ColumnType } from 'antd';
import { FilterFilled } from '@ant-design/icons';
import type { ColumnDef, ResourceDef } from '@ev/core';
import type { OptionMap } from '../options.ts';
import type { Permissions } from '../../app/session.tsx';
import { cellRenderer } from './cells.tsx';
import { FilterDropdown } from './FilterDropdown.tsx';
import type { FilterValue, ListState } from './list-state.ts';

export type Row = Record<string, unknown>;

/** Columns that may be list columns: not view-only, not the selection column, privileges held. */
export function listableColumns(def: ResourceDef, perms: Permissions): ColumnDef[] {
  return def.columns.filter((c) => !c.viewOnly && c.display !== 'massUpdate' && perms.hasAll(c.privileges));
}

/** The list columns: those not hidden by default, plus the hidden ones the user turned on. */
export function listColumns(def: ResourceDef, perms: Permissions, shown: string[] = []): ColumnDef[] {
  return listableColumns(def, perms).filter((c) => !c.hiddenInList || shown.includes(c.field));
}

interface Build {
  def: ResourceDef;
  columns: ColumnDef[];
  state: Pick<ListState, 'filters' | 'sortBy' | 'order'>;
  options: OptionMap;
  label: (field: string) => string;
  setFilter: (field: string, value: FilterValue | undefined) => void;
  actions?: ColumnType<Row>;
}

/** antd columns from the definition; sorting and filtering are the server's, so both are controlled here. */
export function tableColumns({ def, columns, state, options, label, setFilter, actions }: Build): ColumnType<Row>[] {
  const out: ColumnType<Row>[] = [];
  for (const col of columns) {
    if (col.display === 'action') {
      if (actions) out.push(actions);
      continue;
    }
    const active = state.filters[col.field] !== undefined;
    out.push({
      key: col.field,
      dataIndex: col.field,
      title: label(col.field),
      ellipsis: col.display === 'json' || col.display === 'text' || col.display === 'message' ? { showTitle: true } : false,
      sorter: !!col.sortable,
      sortOrder: state.sortBy === col.field ? (state.order === 'asc' ? 'ascend' : 'descend') : null,
      align: col.display === 'boolean' ? 'center' : undefined,
      render: cellRenderer(col, options),
      ...(col.filter
        ? {
            filtered: active,
            filterIcon: <FilterFilled style={{ color: active ? '#0f7b6c' : undefined }} />,
            filterDropdown: ({ close }) => (
              <FilterDropdown
                key={JSON.stringify(state.filters[col.field] ?? null)}
                col={col}
                value={state.filters[col.field]}
                options={col.options ? (options[col.options] ?? []) : []}
                onApply={(v) => {
                  setFilter(col.field, v);
                  close();
                }}
              />
            ),
          }
        : {}),
    });
  }
  if (actions && !columns.some((c) => c.display === 'action')) out.push(actions);
  return out;
}

import { useCallback, useEffect, useMemo, useState, type Key } from 'react';
import { useNavigate } from 'react-router';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Space, Switch, Table, Tooltip, Typography } from 'antd';
import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ResourceDef } from '@ev/core';
import { errorText } from '../../api/errors.ts';
import { useLabels } from '../../app/labels.ts';
import { usePermissions } from '../../app/session.tsx';
import { useOptions } from '../options.ts';
import { hasRowActions as overrideHasRowActions, listActions } from '../overrides/index.ts';
import { ColumnChooser } from './ColumnChooser.tsx';
import { ExportExcelButton } from './ExportExcelButton.tsx';
import { listableColumns, listColumns, tableColumns, type Row } from './columns.tsx';
import { useRowsToDraw, wholePageSelection } from './deferred-rows.tsx';
import { FilterTags } from './FilterTags.tsx';
import {
  initialState, listCall, loadState, pageSizesOf, saveState, searchState, type FilterValue, type ListState,
} from './list-state.ts';
import { RowActions, useRowTools } from './RowActions.tsx';

type ShownQuery = Pick<ListState, 'filters' | 'sortBy' | 'order'>;
const pick = ({ filters, sortBy, order }: ListState): ShownQuery => ({ filters, sortBy, order });
const sameQuery = (a: ShownQuery, b: ShownQuery) => a.filters === b.filters && a.sortBy === b.sortBy && a.order === b.order;

interface Props {
  def: ResourceDef;
  /** Filters fixed by the surrounding screen (a user's log); not shown as tags, not saved. */
  fixedFilters?: Record<string, FilterValue>;
  /** Keep page and parameters in local storage (the main list screens). */
  persist?: boolean;
  /** Inside another screen: no card title. */
  embedded?: boolean;
  /** Opened by /{key}/{search}/search: the term starts as an ordinary (removable) filter of the search column. */
  search?: string;
}

export function ResourceList({ def, fixedFilters, persist = false, embedded = false, search }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { resourceName, fieldLabel } = useLabels();
  const perms = usePermissions();
  const [state, setState] = useState<ListState>(() => {
    const start = persist ? loadState(def) : initialState(def);
    return search === undefined ? start : searchState(def, search, start, (c) => perms.hasAll(c.privileges));
  });
  const [selected, setSelected] = useState<Key[]>([]);

  useEffect(() => {
    if (persist) saveState(def.key, state);
  }, [persist, def.key, state]);

  const columns = useMemo(() => listColumns(def, perms, state.shown), [def, perms, state.shown]);
  const optional = useMemo(() => listableColumns(def, perms).filter((c) => c.hiddenInList), [def, perms]);
  const options = useOptions(columns.map((c) => c.options));
  const call = listCall<Row>(def, state, fixedFilters);
  const list = useQuery({ ...call, placeholderData: keepPreviousData });
  const dataset = list.data?.dataset;
  const totalPages = dataset?.totalPages ?? 0;

  // Spec §9: a page beyond the last one (rows deleted, filters narrowed) jumps to the last page.
  useEffect(() => {
    if (dataset && totalPages > 0 && state.page >= totalPages) setState((s) => ({ ...s, page: totalPages - 1 }));
  }, [dataset, totalPages, state.page]);

  const update = (patch: Partial<ListState>) => setState((s) => ({ ...s, ...patch }));
  const setFilter = useCallback(
    (field: string, value: FilterValue | undefined) =>
      setState((s) => {
        const filters = { ...s.filters };
        if (value === undefined) delete filters[field];
        else filters[field] = value;
        return { ...s, filters, page: 0 };
      }),
    [],
  );

  // Spec §7: rows with a non-positive id are dropped. Kept while the answer is, so the table's rows re-render only for new data.
  const rows = useMemo(
    () =>
      (dataset?.content ?? []).filter((r) => {
        const id = Number(r[def.idField]);
        return Number.isNaN(id) || id > 0;
      }),
    [dataset, def.idField],
  );
  const rowsToDraw = useRowsToDraw(rows);
  const rowKey = useCallback((row: Row) => String(row[def.idField]), [def.idField]);
  const hasRowActions =
    def.actions.some((a) => a === 'view' || a === 'popView' || a === 'downloadPdf') || perms.canEdit(def) || perms.canDelete(def) || overrideHasRowActions(def.key);
  const massUpdate = def.columns.some((c) => c.display === 'massUpdate');

  // Built again only when what they show changes (not for the loading flag or a selection), so that the
  // rows keep their rendered cells; labels follow the language.
  const { refetch } = list;
  const reload = useCallback(() => void refetch(), [refetch]);
  const rowTools = useRowTools(def);
  // The header's arrows and filter marks are those of the rows shown: while a new order or filter is fetched the
  // old rows keep theirs, so the table redraws once, with the new rows (the arrow alone redrew all 200 old rows).
  const [shownQuery, setShownQuery] = useState(() => pick(state));
  if (!list.isPlaceholderData && !sameQuery(shownQuery, state)) setShownQuery(pick(state));
  const { filters, sortBy, order } = shownQuery;
  const antColumns = useMemo(
    () =>
      tableColumns({
        def,
        columns,
        state: { filters, sortBy, order },
        options,
        label: (f) => fieldLabel(def.key, f),
        setFilter,
        actions: hasRowActions
          ? {
              key: '__actions',
              title: t('ui.list.actions'),
              fixed: 'right',
              width: 150,
              render: (_: unknown, row: Row) => (
                <RowActions
                  def={def}
                  id={row[def.idField] as string | number}
                  row={row}
                  perms={perms}
                  tools={rowTools}
                  onDeleted={reload}
                />
              ),
            }
          : undefined,
      }),
    // fieldLabel is made anew each render but follows t.
    [def, columns, filters, sortBy, order, options, setFilter, hasRowActions, perms, t, reload, rowTools],
  );

  const toolbar = (
    <Space wrap>
      {massUpdate && selected.length > 0 && <Typography.Text type="secondary">{t('ui.list.selected', { count: selected.length })}</Typography.Text>}
      {listActions({ def, perms, selected, clearSelection: () => setSelected([]), reload: () => void list.refetch() })}
      {def.softDelete && (
        <Space size={4}>
          <Switch size="small" checked={state.trash} onChange={(trash) => update({ trash, page: 0 })} data-testid="trash-toggle" />
          <span>{t('ui.list.trash')}</span>
        </Space>
      )}
      <ColumnChooser
        columns={optional}
        shown={state.shown}
        label={(f) => fieldLabel(def.key, f)}
        onChange={(shown) => update({ shown })}
      />
      <Tooltip title={t('ui.list.reload')}>
        <Button icon={<ReloadOutlined />} onClick={() => void list.refetch()} aria-label={t('ui.list.reload')} />
      </Tooltip>
      {def.actions.includes('excel') && (
        <ExportExcelButton def={def} query={call.queryKey[2]} columns={columns} total={dataset?.totalElements} />
      )}
      {perms.canCreate(def) && (
        <Button type="primary" icon={<PlusOutlined />} onClick={() => void navigate(`/${def.key}/create`)}>
          {t('ui.actions.create')}
        </Button>
      )}
    </Space>
  );

  const body = (
    <>
      <FilterTags
        def={def}
        filters={state.filters}
        options={options}
        onRemove={(f) => setFilter(f, undefined)}
        onClear={() => update({ filters: {}, page: 0 })}
      />
      {list.isError && <Alert type="error" showIcon title={errorText(list.error, t)} style={{ marginBottom: 12 }} />}
      {/* aria-busy says when the rows shown are about to be replaced (a sort, a filter, a page), spinner or not. */}
      <div aria-busy={list.isFetching}>
        <Table<Row>
          rowKey={rowKey}
          size="middle"
          columns={antColumns}
          dataSource={rowsToDraw}
          // Rows already shown stay clear while a quick re-sort or filter fetches: the spinner's blur restyles every
          // cell of a 200-row page twice. A fetch longer than 300 ms, or a first load, shows it.
          loading={list.isPending || { spinning: list.isFetching, delay: 300 }}
          // Wider than the page (chargers on a 1440-pixel screen): the table scrolls sideways, the action
          // column stays at the right, and a sticky scroll bar at the window's bottom shows the table is wider.
          scroll={{ x: 'max-content' }}
          sticky
          locale={{ emptyText: t('ui.list.noData') }}
          rowSelection={
            massUpdate
              ? {
                  selectedRowKeys: selected,
                  preserveSelectedRowKeys: true,
                  onChange: (keys, _rows, info) =>
                    setSelected(info.type === 'all' ? wholePageSelection(keys, rowsToDraw.map(rowKey), rows.map(rowKey)) : keys),
                }
              : undefined
          }
          onChange={(_p, _f, sorter, extra) => {
            if (extra.action !== 'sort' || Array.isArray(sorter)) return;
            const base = initialState(def);
            update(
              sorter.order
                ? { sortBy: String(sorter.columnKey), order: sorter.order === 'ascend' ? 'asc' : 'desc', page: 0 }
                : { sortBy: base.sortBy, order: base.order, page: 0 },
            );
          }}
          pagination={{
            current: state.page + 1,
            pageSize: state.size,
            total: dataset?.totalElements ?? 0,
            pageSizeOptions: pageSizesOf(def),
            showSizeChanger: true,
            showQuickJumper: true,
            showTotal: (total) =>
              t(dataset?.totalIsEstimate ? 'ui.list.totalEstimate' : 'ui.list.total', {
                row: total,
                page: totalPages ? state.page + 1 : 0,
                max_page: totalPages,
              }),
            onChange: (page, size) => update(size !== state.size ? { page: 0, size } : { page: page - 1 }),
          }}
        />
      </div>
    </>
  );

  if (embedded)
    return (
      <>
        <div style={{ display: 'flex', justifyContent: 'flex-end', marginBottom: 12 }}>{toolbar}</div>
        {body}
      </>
    );
  return (
    <Card title={resourceName(def.key)} extra={toolbar}>
      {body}
    </Card>
  );
}

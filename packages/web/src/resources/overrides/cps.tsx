import { lazy, Suspense } from 'react';
import { Spin } from 'antd';
import { readPrivilege } from '@ev/core';
import type { Permissions } from '../../app/session.tsx';
import type { RecordData } from '../use-record.ts';
import type { ViewTab } from './types.ts';

/** Lazily: ECharts comes with this chunk, only when the Charts tab is opened. */
const MeterChartTab = lazy(() => import('../../screens/charger/MeterChartTab.tsx'));

/** Charger view: per-connector meter charts (spec part 1 §2), for users who may read chargers. */
export const viewTabs = (record: RecordData, perms: Permissions): ViewTab[] =>
  perms.has(readPrivilege('cps'))
    ? [
        {
          key: 'charts',
          label: 'ui.chart.tab',
          children: (
            <Suspense fallback={<Spin />}>
              <MeterChartTab cpId={Number(record.cp_id)} />
            </Suspense>
          ),
        },
      ]
    : [];

import { lazy, Suspense } from 'react';
import { Spin } from 'antd';
import { P, readPrivilege } from '@ev/core';
import type { Permissions } from '../../app/session.tsx';
import type { RecordData } from '../use-record.ts';
import type { ViewTab } from './types.ts';

const SiteDriftTab = lazy(() => import('../../screens/config-fleet/SiteDriftTab.tsx'));

/** Site view: its chargers' configuration drift (issue 29), for those who may read chargers' keys. */
export const viewTabs = (record: RecordData, perms: Permissions): ViewTab[] =>
  [P.GET_CONFIGURATION, readPrivilege('cp_locs')].every((p) => perms.has(p))
    ? [{
        key: 'configDrift',
        label: 'ui.configFleet.tab',
        children: (
          <Suspense fallback={<Spin />}>
            <SiteDriftTab locId={Number(record.loc_id)} />
          </Suspense>
        ),
      }]
    : [];

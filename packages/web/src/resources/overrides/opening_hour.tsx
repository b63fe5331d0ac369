import { readPrivilege } from '@ev/core';
import type { Permissions } from '../../app/session.tsx';
import { ChargersTab } from '../../screens/opening-hours/ChargersTab.tsx';
import { DaysTab } from '../../screens/opening-hours/DaysTab.tsx';
import type { RecordData } from '../use-record.ts';
import type { ViewTab } from './types.ts';

/** Opening hour view: its weekdays and dates, and the chargers it applies to (those the user may read). */
export const viewTabs = (record: RecordData, perms: Permissions): ViewTab[] => [
  { key: 'days', label: 'ui.openingHours.daysTab', children: <DaysTab record={record} /> },
  ...(perms.has(readPrivilege('cps')) ? [{ key: 'chargers', label: 'ui.openingHours.chargersTab', children: <ChargersTab record={record} /> }] : []),
];

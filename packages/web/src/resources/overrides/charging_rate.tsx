import { readPrivilege } from '@ev/core';
import type { Permissions } from '../../app/session.tsx';
import { ChargersTab } from '../../screens/charging-rate/ChargersTab.tsx';
import { SlotsTab } from '../../screens/charging-rate/SlotsTab.tsx';
import type { RecordData } from '../use-record.ts';
import type { ViewTab } from './types.ts';

/** Charging rate view (spec part 2 §2): the price-detail editor (its time slots) and the charger grouping panel (the site's chargers). */
export const viewTabs = (record: RecordData, perms: Permissions): ViewTab[] => [
  ...(perms.has(readPrivilege('charging_rate_detail')) ? [{ key: 'slots', label: 'ui.rates.slotsTab', children: <SlotsTab rate={record} /> }] : []),
  ...(perms.has(readPrivilege('cps')) ? [{ key: 'chargers', label: 'ui.rates.chargersTab', children: <ChargersTab rate={record} /> }] : []),
];

import { editPrivilege, P, readPrivilege } from '@ev/core';
import { MassUpdateButton } from '../../screens/mass-update/MassUpdateButton.tsx';
import { UnconfirmedSessions } from '../../screens/charger/UnconfirmedSessions.tsx';
import { lazyPart } from '../../app/lazy-part.tsx';
import type { Permissions } from '../../app/session.tsx';
import type { RecordData } from '../use-record.ts';
import type { ListActionsContext, ViewTab } from './types.ts';

/** Each tab's code when it is first opened (ECharts only with the Charts tab). */
const MeterChartTab = lazyPart(() => import('../../screens/charger/MeterChartTab.tsx').then((m) => m.default));
const RemoteActionsTab = lazyPart(() => import('../../screens/charger/RemoteActionsTab.tsx').then((m) => m.default));
const ConfigTab = lazyPart(() => import('../../screens/charger/ConfigTab.tsx').then((m) => m.default));
const ChargerFirmwareTab = lazyPart(() => import('../../screens/firmware/ChargerFirmwareTab.tsx').then((m) => m.default));
const ReservationsTab = lazyPart(() => import('../../screens/charger/ReservationsTab.tsx').then((m) => m.default));
const ChargingProfilesTab = lazyPart(() => import('../../screens/charger/ChargingProfilesTab.tsx').then((m) => m.default));
const LocalListSection = lazyPart(() => import('../../screens/charger/LocalListSection.tsx').then((m) => m.default));

/** The privileges of the remote actions (spec part 1 §6): the tab is there when the user holds one. */
const ACTION_PRIVILEGES = [P.REMOTE_START_CHARGER, P.REMOTE_RESET_CHARGER, P.GET_DIAGNOSTICS, P.CHANGE_AVAILABILITY, P.TRIGGER_MESSAGE, P.CLEAR_CACHE];

/** Charger view: per-connector meter charts, the config list and the remote-action buttons (spec part 1 §2). */
export const viewTabs = (record: RecordData, perms: Permissions): ViewTab[] => {
  if (!perms.has(readPrivilege('cps'))) return [];
  const cpId = Number(record.cp_id);
  const tabs: ViewTab[] = [];
  // Spec part 1 §6: READ_CP_CONNECTOR gates the connectors, and the charts are theirs.
  if (perms.has(P.CP_CONNECTOR))
    tabs.push({
      key: 'charts',
      label: 'ui.chart.tab',
      children: <MeterChartTab cpId={cpId} />,
    });
  // Spec part 1 §6: READ_CP_CONFIG gates the config list.
  if (perms.has(P.CP_CONFIG))
    tabs.push({
      key: 'config',
      label: 'ui.cpConfig.tab',
      children: <ConfigTab cpId={cpId} />,
    });
  if (ACTION_PRIVILEGES.some((p) => perms.has(p)))
    tabs.push({
      key: 'actions',
      label: 'ui.remote.tab',
      children: <RemoteActionsTab cpId={cpId} />,
    });
  if (perms.has(P.CHARGING_PROFILE))
    tabs.push({ key: 'chargingProfiles', label: 'ui.chargingProfiles.tab', children: <ChargingProfilesTab cpId={cpId} /> });
  if (perms.has(P.LOCAL_LIST))
    tabs.push({ key: 'localList', label: 'ui.localList.tab', children: <LocalListSection cpId={cpId} /> });
  if (perms.has(readPrivilege('reservations')))
    tabs.push({
      key: 'reservations',
      label: 'ui.reservations.tab',
      children: <ReservationsTab cpId={cpId} />,
    });
  // Issue 29: the version it runs and the firmware updates sent to it (the charger's own record: READ_CPS).
  tabs.push({ key: 'firmware', label: 'ui.firmware.tab', children: <ChargerFirmwareTab cpId={cpId} /> });
  return tabs;
};

/** Above the charger view: its sessions the charger never stopped, per connector. */
export const viewNotice = (record: RecordData, perms: Permissions) => <UnconfirmedSessions cpId={Number(record.cp_id)} perms={perms} />;

/** Spec part 1 §2: the mass update of the selected chargers' configuration (a config editor's right). */
export const listActions = ({ perms, selected, clearSelection, reload }: ListActionsContext) =>
  perms.has(P.CP_CONFIG) && perms.has(editPrivilege('cp_config')) ? (
    <MassUpdateButton
      selected={selected}
      onDone={() => {
        clearSelection();
        reload();
      }}
    />
  ) : null;

import { createPrivilege, type ResourceDef } from '@ev/core';
import { Space } from 'antd';
import type { Permissions } from '../../app/session.tsx';
import { CreateConfButton } from '../../screens/third-party/CreateConfButton.tsx';
import { SecretActions } from '../../screens/third-party/SecretActions.tsx';
import { RecordDescriptions } from '../view/RecordDetails.tsx';
import type { RecordData } from '../use-record.ts';
import type { ListActionsContext, ViewTab } from './types.ts';

/** Third-party keys: created in a dialog that shows the secret once; the secret removed or renewed from view and pop-view. */
export const listActions = ({ def, perms, reload }: ListActionsContext) =>
  perms.has(createPrivilege(def.key)) ? <CreateConfButton def={def} onCreated={reload} /> : null;

export const viewTabs = (record: RecordData, perms: Permissions): ViewTab[] => [
  { key: 'secret', label: 'ui.thirdParty.tab', children: <SecretActions record={record} perms={perms} /> },
];

export const popView = (record: RecordData, perms: Permissions, def: ResourceDef) => (
  <Space orientation="vertical" style={{ width: '100%' }}>
    <RecordDescriptions def={def} record={record} />
    <SecretActions record={record} perms={perms} />
  </Space>
);

import { createPrivilege, type ResourceDef } from '@ev/core';
import { Space } from 'antd';
import type { Permissions } from '../../app/session.tsx';
import { lazyPart } from '../../app/lazy-part.tsx';
import { SecretActions } from '../../screens/third-party/SecretActions.tsx';
import { RecordDescriptions } from '../view/RecordDetails.tsx';
import type { RecordData } from '../use-record.ts';
import type { ListActionsContext, ViewTab } from './types.ts';

// Its form (every field type, the date picker too) comes with the button, shown once that has arrived.
const CreateConfButton = lazyPart(() => import('../../screens/third-party/CreateConfButton.tsx').then((m) => m.CreateConfButton), null);

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

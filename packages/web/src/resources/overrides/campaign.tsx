import { readPrivilege } from '@ev/core';
import type { Permissions } from '../../app/session.tsx';
import { lazyPart } from '../../app/lazy-part.tsx';
import type { RecordData } from '../use-record.ts';
import type { ViewTab } from './types.ts';

const RulesTab = lazyPart(() => import('../../screens/campaign/RulesTab.tsx').then((m) => m.RulesTab));

/** A campaign's rules (spec part 2 §2: the nested campaign_rule list of its view and edit-and-view). */
export const viewTabs = (record: RecordData, perms: Permissions): ViewTab[] =>
  perms.has(readPrivilege('campaign_rule'))
    ? [{
        key: 'rules',
        label: 'ui.campaignRules.tab',
        children: <RulesTab campaignId={Number(record.id)} locked={Number(record.isVoucher) === 1} perms={perms} />,
      }]
    : [];

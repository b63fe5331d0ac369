import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Empty, Space, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { RESOURCES, type ListResponse } from '@ev/core';
import { api } from '../../api/client.ts';
import { errorText } from '../../api/errors.ts';
import { usePermissions } from '../../app/session.tsx';
import type { RecordData } from '../../resources/use-record.ts';
import { ChargerChecklist, useAssignmentSave, useChecklist, type ChecklistCharger } from '../charger-checklist/ChargerChecklist.tsx';

interface Charger extends ChecklistCharger {
  /** The name of the rate the charger charges at now, when another. */
  otherRate: string | null;
}

/**
 * The rate's chargers (spec part 2 §2, §7): the chargers of its site, ticked when they charge at
 * this rate, each naming the other rate it has. Save sends the whole set; only the body 'Success'
 * is a success (§8).
 */
export function ChargersTab({ rate }: { rate: RecordData }) {
  const { t } = useTranslation();
  const canEdit = usePermissions().canEdit(RESOURCES.charging_rate);
  const rateId = Number(rate.id);
  const locId = rate.loc_id === null || rate.loc_id === undefined ? -1 : Number(rate.loc_id);
  const data = useQuery({
    queryKey: ['charging_rate_detail_cp_group', rateId],
    queryFn: async () => {
      const all = { size: 99999, page: 0, trash: 0, locId };
      const [cps, groups, rates] = await Promise.all([
        api.get<ListResponse<{ cp_id: number; cp_no: string; name?: string }>>('/cps', { ...all, sort_by: 'cp_no', order: 'asc' }),
        api.get<Record<string, number[]>>('/charging_rate_detail_cp_group'),
        // A charger has rates of its own site only: the site's rates name them.
        api.get<ListResponse<{ id: number; name: string }>>('/charging_rate', all),
      ]);
      const names = new Map(rates.dataset.content.map((r) => [r.id, r.name]));
      const rateOf = new Map<number, number>();
      for (const [id, list] of Object.entries(groups)) if (id !== 'cpIds') for (const cp of list) rateOf.set(cp, Number(id));
      return cps.dataset.content.map((c): Charger => {
        const at = rateOf.get(c.cp_id) ?? null;
        const other = at !== null && at !== rateId ? (names.get(at) ?? `#${at}`) : null;
        return { cp_id: c.cp_id, cp_no: c.cp_no, name: c.name, assigned: at === rateId ? 1 : 0, otherRate: other };
      });
    },
  });
  const chargers = useMemo(() => data.data, [data.data]);
  const { checked, setChecked, changed, reset } = useChecklist(chargers);
  const { saving, save: saveAssignment } = useAssignmentSave('/charging_rate_detail_cp_group', () => data.refetch());

  if (data.isPending) return <Spin />;
  if (data.isError) return <Alert type="error" showIcon title={errorText(data.error, t)} />;
  if (!data.data.length) return <Empty description={t(locId < 0 ? 'ui.rates.noSite' : 'ui.rates.noChargers')} />;

  const save = () => saveAssignment({ chargingRateId: rateId, cpIds: [...checked] });

  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="rate-chargers">
      {canEdit && <Alert type="info" showIcon title={t('ui.rates.moveHint')} />}
      <ChargerChecklist
        chargers={data.data}
        checked={checked}
        onChange={setChecked}
        disabled={!canEdit}
        countText={t('ui.rates.assignedCount', { count: checked.size, total: data.data.length })}
        note={(c) => (c.otherRate !== null ? <Typography.Text type="warning"> ({t('ui.rates.otherRate', { name: c.otherRate })})</Typography.Text> : null)}
      />
      {canEdit && (
        <Space>
          <Button type="primary" disabled={!changed.length} loading={saving} onClick={() => void save()}>
            {t('ui.common.save')}
          </Button>
          <Button disabled={!changed.length} onClick={reset}>
            {t('ui.common.reset')}
          </Button>
        </Space>
      )}
    </Space>
  );
}

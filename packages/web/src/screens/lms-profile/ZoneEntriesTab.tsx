import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Empty, InputNumber, Space, Spin, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { localName, minLockedToMax, type ZoneLmsEntry, type ZoneLmsProfilesAnswer, type ZoneLmsProfilesBody } from '@ev/core';
import { ApiError, api } from '../../api/client.ts';
import { errorText } from '../../api/errors.ts';
import { fieldErrorText, isValidationBody } from '../../resources/form/server-errors.ts';
import { rowValues, serverRowErrors, shownMin, zonesToSave, type CurrentField, type RowErrors, type RowValues } from './zone-entries.ts';

interface Props {
  profileId: number;
  canEdit: boolean;
}

/**
 * The Zones tab of an LMS profile: per zone of the profile's site, the zone's available current and
 * each charger's bounds (spec part 1 §2–§5). Inputs are bounded by the zone's physical limit; in
 * QUEUEING mode min follows max. Saving sends the whole set after a confirmation.
 */
export function ZoneEntriesTab({ profileId, canEdit }: Props) {
  const { t, i18n } = useTranslation();
  const { message, modal } = App.useApp();
  const query = useQuery({
    queryKey: ['zone_lms_profiles', profileId],
    queryFn: () => api.get<ZoneLmsProfilesAnswer>('/zone_lms_profiles', { lms_profile_id: profileId }),
  });
  const [values, setValues] = useState<Record<number, RowValues>>({});
  const [errors, setErrors] = useState<RowErrors>({});
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    setValues(Object.fromEntries((query.data?.dataset.content ?? []).map((z) => [z.zone_id, rowValues(z)])));
    setErrors({});
  }, [query.data]);

  if (query.isPending) return <Spin />;
  if (query.isError) return <Alert type="error" showIcon title={errorText(query.error, t)} />;
  const { mode, dataset } = query.data;
  const zones = dataset.content;
  if (!zones.length) return <Empty description={t('ui.lmsProfile.noZones')} />;
  const locked = minLockedToMax(mode);

  const set = (zone: number, field: CurrentField, v: number | null) => {
    setValues((prev) => ({ ...prev, [zone]: { ...prev[zone], [field]: v } }));
    setErrors((prev) => (prev[zone]?.[field] ? { ...prev, [zone]: { ...prev[zone], [field]: undefined } } : prev));
  };

  const save = () => {
    const { zones: sent, errors: incomplete } = zonesToSave(mode, zones, values);
    if (Object.keys(incomplete).length) {
      setErrors(incomplete);
      void message.error(t('ui.lmsProfile.incomplete'));
      return;
    }
    modal.confirm({
      title: t('ui.lmsProfile.confirmSave'),
      okText: t('ui.common.confirm'),
      cancelText: t('ui.common.cancel'),
      onOk: async () => {
        setSaving(true);
        try {
          const body: ZoneLmsProfilesBody = { lms_profile_id: profileId, zones: sent };
          await api.put('/zone_lms_profiles', body);
          void message.success(t('msg.saved'));
          await query.refetch();
        } catch (err) {
          // Spec part 1 §8: the generic error; the rows the server names are marked as well.
          if (err instanceof ApiError && isValidationBody(err.body)) setErrors(serverRowErrors(err.body.fields, sent));
          void message.error(errorText(err, t));
        } finally {
          setSaving(false);
        }
      },
    });
  };

  const input = (z: ZoneLmsEntry, field: CurrentField, max: number | undefined) => {
    const v = values[z.zone_id] ?? rowValues(z);
    const isMin = field === 'min_charging_current';
    const error = errors[z.zone_id]?.[field];
    return (
      <Space orientation="vertical" size={0}>
        <InputNumber
          id={`${field}-${z.zone_id}`}
          min={1}
          max={max}
          precision={0}
          style={{ width: 140 }}
          disabled={!canEdit || (isMin && locked)}
          status={error ? 'error' : undefined}
          value={isMin ? shownMin(mode, v) : v[field]}
          onChange={(n) => set(z.zone_id, field, typeof n === 'number' ? n : null)}
        />
        {error && <Typography.Text type="danger">{fieldErrorText(error, t, (k) => i18n.exists(k))}</Typography.Text>}
      </Space>
    );
  };
  // Each bound caps the one below it, the zone's physical limit capping them all (spec part 1 §5).
  const bound = (...caps: (number | null | undefined)[]) => Math.min(...caps.filter((c): c is number => typeof c === 'number' && c > 0));

  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="lms-zone-entries">
      {locked && <Alert type="info" showIcon title={t('ui.lmsProfile.queueingHint')} />}
      <Table<ZoneLmsEntry>
        rowKey="zone_id"
        size="small"
        pagination={false}
        dataSource={zones}
        scroll={{ x: 'max-content' }}
        columns={[
          {
            key: 'zone',
            title: t('ui.lmsProfile.zone'),
            render: (_, z) => (
              <Space orientation="vertical" size={0}>
                <strong>{localName(i18n.language === 'zh-TW' ? 'zh-TW' : 'en', z.zone_name_en, z.zone_name)}</strong>
                {errors[z.zone_id]?.zone_id && <Tag color="error">{fieldErrorText(errors[z.zone_id].zone_id!, t, (k) => i18n.exists(k))}</Tag>}
              </Space>
            ),
          },
          { key: 'limit', title: t('ui.lmsProfile.physicalLimit'), dataIndex: 'max_physical_current_limit' },
          {
            key: 'zmax',
            title: t('ui.lmsProfile.zoneMaxAvailable'),
            render: (_, z) => input(z, 'zone_max_available_current', z.max_physical_current_limit),
          },
          {
            key: 'max',
            title: t('ui.lmsProfile.maxCharging'),
            render: (_, z) => input(z, 'max_charging_current', bound(z.max_physical_current_limit, values[z.zone_id]?.zone_max_available_current)),
          },
          {
            key: 'min',
            title: t('ui.lmsProfile.minCharging'),
            render: (_, z) => input(z, 'min_charging_current', bound(z.max_physical_current_limit, values[z.zone_id]?.max_charging_current)),
          },
        ]}
      />
      {canEdit && (
        <Space>
          <Button type="primary" loading={saving} onClick={save}>
            {t('ui.lmsProfile.saveZones')}
          </Button>
          <Button onClick={() => setValues(Object.fromEntries(zones.map((z) => [z.zone_id, rowValues(z)])))}>{t('ui.common.reset')}</Button>
        </Space>
      )}
    </Space>
  );
}

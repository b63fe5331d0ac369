import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, DatePicker, Form, Select, Space, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { editPrivilege } from '@ev/core';
import { api } from '../../api/client.ts';
import { errorText } from '../../api/errors.ts';
import { usePermissions } from '../../app/session.tsx';
import type { RecordData } from '../../resources/use-record.ts';

/** Spec §9: the opening-hour day picker covers 700 days from today. */
const PICKER_DAYS = 700;
const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7];

/** The opening hour's weekdays (none: no limit) and dates (none: every date), saved together. */
export function DaysTab({ record }: { record: RecordData }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const canEdit = usePermissions().has(editPrivilege('opening_hour'));
  const id = Number(record.opening_hour_id);
  const [weekday, setWeekday] = useState<number[]>([]);
  const [dates, setDates] = useState<Dayjs[]>([]);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    setWeekday(Array.isArray(record.weekday) ? record.weekday.map(Number) : []);
    setDates(Array.isArray(record.date_list) ? record.date_list.map((d) => dayjs(String(d))) : []);
  }, [record.weekday, record.date_list]);

  const start = String(record.start_time ?? '');
  const end = String(record.end_time ?? '');
  const today = dayjs().startOf('day');
  const save = async () => {
    setSaving(true);
    try {
      await api.put(`/opening_hour_days/${id}`, { weekday, date_list: dates.map((d) => d.format('YYYY-MM-DD')) });
      void message.success(t('msg.saved'));
      await queryClient.invalidateQueries({ queryKey: ['record', 'opening_hour'] });
    } catch (err) {
      void message.error(errorText(err, t));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Form layout="vertical" style={{ maxWidth: 640 }}>
      <Typography.Paragraph>
        {t('ui.openingHours.hours', { start, end })}
        {Number(record.ends_next_day) === 1 ? ` (${t('ui.openingHours.overnight', { end })})` : ''}
      </Typography.Paragraph>
      <Form.Item label={t('ui.openingHours.weekdays')}>
        <Select
          id="opening-hour-weekday"
          mode="multiple"
          allowClear
          disabled={!canEdit}
          placeholder={t('ui.openingHours.noLimit')}
          value={weekday}
          onChange={(v: number[]) => setWeekday([...v].sort())}
          options={WEEKDAYS.map((d) => ({ value: d, label: t(`ui.openingHours.weekday_${d}`) }))}
        />
      </Form.Item>
      <Form.Item label={t('ui.openingHours.dates')} extra={t('ui.openingHours.datesHelp')}>
        <DatePicker
          id="opening-hour-dates"
          multiple
          disabled={!canEdit}
          style={{ width: '100%' }}
          format="YYYY-MM-DD"
          placeholder={t('ui.openingHours.noLimit')}
          value={dates}
          disabledDate={(d) => d.isBefore(today) || d.isAfter(today.add(PICKER_DAYS, 'day'))}
          onChange={(v) => setDates([...((v as Dayjs[] | null) ?? [])].sort((a, b) => a.valueOf() - b.valueOf()))}
        />
      </Form.Item>
      {canEdit && (
        <Space>
          <Button type="primary" loading={saving} onClick={() => void save()}>
            {t('ui.common.save')}
          </Button>
        </Space>
      )}
    </Form>
  );
}

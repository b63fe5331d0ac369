import dayjs, { type Dayjs } from 'dayjs';
import { Button, Checkbox, DatePicker, Space, TimePicker, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

/**
 * The config of a campaign rule, edited per type and written as the JSON string the server stores
 * (vouchers/rules.ts normalises it as pricing reads it): DateExclude a list of dates, TimeInclude
 * start/end pairs, DayInclude weekdays with the shorthands 1-5, 1-6, 1-7.
 */
interface Props {
  type: string | undefined;
  /** Injected by Form.Item: the JSON string. */
  value?: string;
  onChange?: (value: string) => void;
  disabled?: boolean;
}

type TimeRange = { start: string; end: string };
const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7];
const SHORTHANDS: [string, number][] = [['1-5', 5], ['1-6', 6], ['1-7', 7]];
/** The i18n key of a shorthand's name (spec part 2 §4: 1-5 Mon-Fri, 1-6 Mon-Sat, 1-7 Mon-Sun). */
const SHORTHAND_LABELS: Record<string, string> = { '1-5': 'ui.campaignRules.monFri', '1-6': 'ui.campaignRules.monSat', '1-7': 'ui.campaignRules.monSun' };

function parse(value: string | undefined): unknown[] {
  try {
    const v: unknown = JSON.parse(value ?? '[]');
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}

/** The weekdays a DayInclude config names, shorthands expanded. */
export function daysOf(list: unknown[]): number[] {
  const days = new Set<number>();
  for (const d of list) {
    const s = String(d).replace(/\s+/g, '');
    const range = /^([1-7])-([1-7])$/.exec(s);
    if (range) for (let n = Number(range[1]); n <= Number(range[2]); n++) days.add(n);
    else if (/^[1-7]$/.test(s)) days.add(Number(s));
  }
  return [...days].sort();
}

/** Weekdays back to a config: a whole Mon-Fri / Mon-Sat / Mon-Sun run as its shorthand, plus single days. */
function daysConfig(days: number[]): (number | string)[] {
  const set = new Set(days);
  for (const [shorthand, last] of [...SHORTHANDS].reverse()) {
    if (WEEKDAYS.slice(0, last).every((d) => set.has(d))) return [shorthand, ...WEEKDAYS.slice(last).filter((d) => set.has(d))];
  }
  return [...set].sort();
}

export function RuleConfigEditor({ type, value, onChange, disabled }: Props) {
  const { t } = useTranslation();
  const list = parse(value);
  const write = (next: unknown[]) => onChange?.(JSON.stringify(next));

  if (type === 'DateExclude') {
    const dates = list.map(String);
    return (
      <Space direction="vertical" data-testid="rule-dates">
        <Typography.Text type="secondary">{t('ui.campaignRules.dates')}</Typography.Text>
        {dates.map((d, i) => (
          <Space key={i}>
            <DatePicker
              disabled={disabled}
              format="YYYY-MM-DD"
              value={d && dayjs(d, 'YYYY-MM-DD', true).isValid() ? dayjs(d, 'YYYY-MM-DD') : null}
              onChange={(v: Dayjs | null) => write(dates.map((x, j) => (j === i ? (v ? v.format('YYYY-MM-DD') : '') : x)))}
            />
            <Button icon={<DeleteOutlined />} disabled={disabled} aria-label={t('ui.campaignRules.remove')} onClick={() => write(dates.filter((_, j) => j !== i))} />
          </Space>
        ))}
        <Button icon={<PlusOutlined />} disabled={disabled} onClick={() => write([...dates, ''])}>
          {t('ui.campaignRules.addDate')}
        </Button>
      </Space>
    );
  }

  if (type === 'TimeInclude') {
    const ranges = list.map((r) => ({ start: String((r as TimeRange)?.start ?? ''), end: String((r as TimeRange)?.end ?? '') }));
    const set = (i: number, key: keyof TimeRange, v: Dayjs | null) =>
      write(ranges.map((r, j) => (j === i ? { ...r, [key]: v ? v.format('HH:mm') : '' } : r)));
    const picker = (i: number, key: keyof TimeRange) => (
      <TimePicker
        disabled={disabled}
        format="HH:mm"
        placeholder={t(`ui.campaignRules.${key}`)}
        aria-label={t(`ui.campaignRules.${key}`)}
        value={ranges[i][key] ? dayjs(ranges[i][key], 'HH:mm') : null}
        onChange={(v) => set(i, key, v)}
      />
    );
    return (
      <Space direction="vertical" data-testid="rule-times">
        <Typography.Text type="secondary">{t('ui.campaignRules.times')}</Typography.Text>
        {ranges.map((_, i) => (
          <Space key={i}>
            {picker(i, 'start')}
            <span>–</span>
            {picker(i, 'end')}
            <Button icon={<DeleteOutlined />} disabled={disabled} aria-label={t('ui.campaignRules.remove')} onClick={() => write(ranges.filter((_, j) => j !== i))} />
          </Space>
        ))}
        <Button icon={<PlusOutlined />} disabled={disabled} onClick={() => write([...ranges, { start: '', end: '' }])}>
          {t('ui.campaignRules.addRange')}
        </Button>
      </Space>
    );
  }

  if (type === 'DayInclude') {
    const days = daysOf(list);
    return (
      <Space direction="vertical" data-testid="rule-days">
        <Typography.Text type="secondary">{t('ui.campaignRules.days')}</Typography.Text>
        <Space wrap>
          {SHORTHANDS.map(([shorthand, last]) => (
            <Button key={shorthand} size="small" disabled={disabled} onClick={() => write(daysConfig(WEEKDAYS.slice(0, last)))}>
              {t(SHORTHAND_LABELS[shorthand])}
            </Button>
          ))}
          <Button size="small" disabled={disabled} onClick={() => write([])}>
            {t('ui.campaignRules.clear')}
          </Button>
        </Space>
        <Checkbox.Group
          disabled={disabled}
          value={days}
          onChange={(v) => write(daysConfig(v as number[]))}
          options={WEEKDAYS.map((d) => ({ value: d, label: t(`ui.campaignRules.weekday.${d}`) }))}
        />
      </Space>
    );
  }
  return null;
}

/** A config as one line of text for the rules table; weekdays read as the spec's shorthands where they make one (Mon–Fri, Sun). */
export function configSummary(type: string, value: string, t: (key: string) => string): string {
  const list = parse(value);
  if (type === 'TimeInclude') return list.map((r) => `${(r as TimeRange).start}–${(r as TimeRange).end}`).join(', ');
  if (type === 'DayInclude') {
    return daysConfig(daysOf(list))
      .map((d) => t(SHORTHAND_LABELS[d] ?? `ui.campaignRules.weekday.${d}`))
      .join(', ');
  }
  return list.map(String).join(', ');
}

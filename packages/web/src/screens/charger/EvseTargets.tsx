import { InputNumber, Select, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * The targets only an OCPP 2.0.1 charger has, for the Remote actions tab (issue 31): the EVSE a reset is for,
 * and one connector within an EVSE for a change of availability. The portal's connector N is EVSE N.
 */

/** Whole station (0) or one of its EVSEs, for the reset buttons beside it. */
export function ResetTarget({ value, onChange, evseIds }: { value: number; onChange: (evseId: number) => void; evseIds: number[] }) {
  const { t } = useTranslation();
  return (
    <Select
      aria-label={t('ui.remote.resetTarget')}
      data-testid="reset-target"
      style={{ width: 180 }}
      value={evseIds.includes(value) ? value : 0}
      onChange={onChange}
      options={[0, ...evseIds].map((n) => ({ value: n, label: n === 0 ? t('ui.remote.wholeCharger') : t('ui.remote.evse', { n }) }))}
    />
  );
}

/** The optional connector within the EVSE, in the availability confirmation (empty: the whole EVSE). */
export function EvseConnectorInput({ onChange }: { onChange: (connectorId: number | null) => void }) {
  const { t } = useTranslation();
  return (
    <Space orientation="vertical" size={4} style={{ marginTop: 8 }}>
      <InputNumber
        aria-label={t('ui.remote.evseConnector')}
        placeholder={t('ui.remote.evseConnector')}
        data-testid="evse-connector"
        min={1}
        max={99}
        precision={0}
        style={{ width: 260 }}
        onChange={(v) => onChange(typeof v === 'number' && v >= 1 ? v : null)}
      />
      <Typography.Text type="secondary">{t('ui.remote.evseConnectorHint')}</Typography.Text>
    </Space>
  );
}

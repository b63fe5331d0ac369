import { Alert, Select, Space, Typography } from 'antd';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { P, readPrivilege } from '@ev/core';
import { usePermissions } from '../../app/session.tsx';
import { useOptions } from '../../resources/options.ts';
import { FleetDrift } from './FleetDrift.tsx';

/** What the fleet view needs (the server checks the same): reading chargers' keys, and reading sites. */
export const FLEET_PRIVILEGES = [P.GET_CONFIGURATION, readPrivilege('cp_locs')];

/**
 * /config/fleet (issue 29): pick a site (?site= keeps it in the address, as the site view's link
 * opens it), then its chargers' configuration drift.
 */
export default function ConfigFleetPage() {
  const { t } = useTranslation();
  const perms = usePermissions();
  const [params, setParams] = useSearchParams();
  const options = useOptions(['cp_locs']);
  const locId = Number(params.get('site')) || undefined;

  if (!FLEET_PRIVILEGES.every((p) => perms.has(p))) return <Alert type="error" showIcon title={t('ui.error.noPermission')} />;
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Typography.Title level={4} style={{ margin: 0 }}>
        {t('ui.configFleet.title')}
      </Typography.Title>
      <Select<number>
        showSearch={{ optionFilterProp: 'label' }}
        style={{ minWidth: 320, maxWidth: 480 }}
        placeholder={t('ui.configFleet.pickSite')}
        aria-label={t('ui.configFleet.site')}
        data-testid="config-fleet-site"
        value={locId}
        onChange={(v) => setParams(v ? { site: String(v) } : {})}
        options={options.cp_locs.map((o) => ({ label: o.label, value: Number(o.value) }))}
      />
      {locId && <FleetDrift key={locId} locId={locId} />}
      <Typography.Text type="secondary">{t('ui.configFleet.progressNote')}</Typography.Text>
    </Space>
  );
}

import { Space } from 'antd';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { FleetDrift } from './FleetDrift.tsx';

/** The site view's Configuration drift tab: the fleet view of this site, and the page that picks any site. */
export default function SiteDriftTab({ locId }: { locId: number }) {
  const { t } = useTranslation();
  return (
    <Space orientation="vertical" size="small" style={{ width: '100%' }}>
      <Link to={`/config/fleet?site=${locId}`} data-testid="config-fleet-open">{t('ui.configFleet.openFull')}</Link>
      <FleetDrift locId={locId} />
    </Space>
  );
}

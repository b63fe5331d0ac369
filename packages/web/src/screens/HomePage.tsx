import { Navigate } from 'react-router';
import { Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { readPrivilege } from '@ev/core';
import { useMe, usePermissions } from '../app/session.tsx';

/** Home follows the global home_screen setting (spec part 1 §2). The dashboards themselves come later. */
export default function HomePage() {
  const { t } = useTranslation();
  const me = useMe();
  const perms = usePermissions();
  if (me.home_screen === 'CpList' && perms.has(readPrivilege('cps'))) return <Navigate to="/cps" replace />;
  const dashboard = me.home_screen === 'LMS' || me.home_screen === 'Dashboard';
  return (
    <Result
      status="info"
      title={t('ui.home.welcome', { name: me.name || me.username })}
      subTitle={dashboard ? t('ui.home.dashboardLater') : t('ui.home.useMenu')}
    />
  );
}

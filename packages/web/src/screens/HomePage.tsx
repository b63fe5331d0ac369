import { lazy, Suspense } from 'react';
import { Navigate } from 'react-router';
import { Result, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { P, readPrivilege } from '@ev/core';
import { useMe, usePermissions } from '../app/session.tsx';

// Loaded only when home shows them.
const QuickInfoPage = lazy(() => import('./dashboard/QuickInfoPage.tsx'));
const V1DashboardPage = lazy(() => import('./dashboard/V1DashboardPage.tsx'));

/**
 * Home follows the global home_screen setting (spec part 1 §2): 'LMS' opens the LMS dashboard, 'Dashboard'
 * shows the v2 (Quick info) dashboard or else the v1 one by the user's privileges, 'CpList' opens the
 * chargers. Where the user may not see what the setting names, a welcome page: never a screen whose calls
 * would answer 403 (which signs the portal out).
 */
export default function HomePage() {
  const { t } = useTranslation();
  const me = useMe();
  const perms = usePermissions();
  const loading = <Spin style={{ display: 'block', margin: 48 }} />;
  if (me.home_screen === 'LMS' && perms.has(readPrivilege('lms/dashboard'))) return <Navigate to="/lms/dashboard" replace />;
  if (me.home_screen === 'CpList' && perms.has(readPrivilege('cps'))) return <Navigate to="/cps" replace />;
  if (me.home_screen === 'Dashboard' && perms.has(P.V2_DASHBOARD)) return <Suspense fallback={loading}><QuickInfoPage /></Suspense>;
  if (me.home_screen === 'Dashboard' && perms.has(P.V1_DASHBOARD)) return <Suspense fallback={loading}><V1DashboardPage /></Suspense>;
  return <Result status="info" title={t('ui.home.welcome', { name: me.name || me.username })} subTitle={t('ui.home.useMenu')} data-testid="home-welcome" />;
}

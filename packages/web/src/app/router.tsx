import { Suspense, type ReactNode } from 'react';
import { createBrowserRouter, Navigate, useLocation } from 'react-router';
import { MENU } from '@ev/core';
import RouteError from '../screens/RouteError.tsx';
import { getToken } from '../api/token.ts';
import { Loading } from './Loading.tsx';
import { lazyScreen } from './lazy-screen.ts';
import { CUSTOM_SCREENS, hasScreen, type CustomScreen } from './screens.ts';

// Split by route: the signed-in shell (antd, every text) and each screen load on demand, each given up after
// the spec's chunk-load timeout; the sign-in page needs none of it.
const LoginPage = lazyScreen(() => import('../screens/LoginPage.tsx'));
const ErrorPage = lazyScreen(() => import('../screens/ErrorPage.tsx'));
const loadShell = () => import('./Shell.tsx');
const Shell = lazyScreen(loadShell);
const HomePage = lazyScreen(() => import('../screens/HomePage.tsx'));
const ProfilePage = lazyScreen(() => import('../screens/ProfilePage.tsx'));
const RnpPage = lazyScreen(() => import('../screens/rnp/RnpPage.tsx'));
const TesterPage = lazyScreen(() => import('../screens/tester/TesterPage.tsx'));
const LmsDashboardPage = lazyScreen(() => import('../screens/lms/LmsDashboardPage.tsx'));
const RealtimeLogPage = lazyScreen(() => import('../screens/lms/RealtimeLogPage.tsx'));
const QuickInfoPage = lazyScreen(() => import('../screens/dashboard/QuickInfoPage.tsx'));
const ConfigFleetPage = lazyScreen(() => import('../screens/config-fleet/ConfigFleetPage.tsx'));
const NotAvailablePage = lazyScreen(() => import('../screens/NotAvailablePage.tsx'));
const loadResourceRoute = () => import('../resources/ResourceRoute.tsx');
const ResourceRoute = lazyScreen(loadResourceRoute);

const page = (node: ReactNode) => <Suspense fallback={<Loading />}>{node}</Suspense>;

/** Without a stored session, straight to sign-in, before the shell's code is fetched (RequireAuth checks it too). */
function SignedInOnly({ children }: { children: ReactNode }) {
  const location = useLocation();
  return getToken() ? children : <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />;
}

/** The custom screens, one per key of CUSTOM_SCREENS (the sidebar shows a menu key only when it has a screen). */
const customScreens: Record<CustomScreen, ReactNode> = {
  rnp: <RnpPage />,
  'user/profile': <ProfilePage />,
  'test/cp_request': <TesterPage />,
  // The same screen with the simulator's message set; key remounts it so nothing carries over.
  'lms/cp_simulator': <TesterPage key="lms/cp_simulator" set="lms/cp_simulator" />,
  'v2/quickinfo': <QuickInfoPage />,
  'lms/dashboard': <LmsDashboardPage />,
  'realtime/log': <RealtimeLogPage />,
  'config/fleet': <ConfigFleetPage />,
};

/**
 * Pages of the spec with a slash in their key (lms/dashboard…) and no screen yet: opened by URL they
 * say so, where they would otherwise read as /{key}/{id}. The sidebar does not offer them.
 */
const slashPages = [...MENU.flatMap((g) => g.items), 'v2/quickinfo'].filter((key) => key.includes('/') && !hasScreen(key));

const basename = import.meta.env.BASE_URL.replace(/\/$/, '') || '/';

export const router = createBrowserRouter(
  [
    { path: '/login', element: page(<LoginPage />), errorElement: <RouteError /> },
    { path: '/error/:code', element: page(<ErrorPage />), errorElement: <RouteError /> },
    {
      path: '/',
      element: <SignedInOnly>{page(<Shell />)}</SignedInOnly>,
      errorElement: <RouteError />,
      // Each page has its own error element so a failing page keeps the menu around it; while a page's code
      // arrives, the layout's own Suspense shows antd's spinner in place of the page.
      children: [
        { index: true, element: <HomePage /> },
        ...CUSTOM_SCREENS.map((key) => ({ path: key, element: customScreens[key] })),
        ...slashPages.map((key) => ({ path: key, element: <NotAvailablePage pageKey={key} /> })),
        { path: ':key', element: <ResourceRoute mode="list" /> },
        { path: ':key/create', element: <ResourceRoute mode="create" /> },
        { path: ':key/:search/search', element: <ResourceRoute mode="search" /> },
        { path: ':key/:id/edit', element: <ResourceRoute mode="edit" /> },
        { path: ':key/:id/EditView', element: <ResourceRoute mode="editview" /> },
        { path: ':key/:id', element: <ResourceRoute mode="view" /> },
        { path: '*', element: <ErrorPage code="404" /> },
      ].map((route) => ({ ...route, errorElement: <RouteError /> })),
    },
  ],
  { basename },
);

// Signed in and opening a resource's screen: fetch the shell and the screen's code side by side now, rather than
// the screen's only once the shell has drawn (the import()s React.lazy makes later find them loaded).
// A failed fetch here is left to the screen's own load, which shows the error page.
if (getToken()) {
  const ignore = () => undefined;
  void loadShell().catch(ignore);
  const path = basename === '/' ? window.location.pathname : window.location.pathname.slice(basename.length);
  const first = path.split('/')[1] ?? '';
  if (hasScreen(first) && !(CUSTOM_SCREENS as readonly string[]).some((key) => key.split('/')[0] === first)) void loadResourceRoute().catch(ignore);
}

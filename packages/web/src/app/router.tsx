import { Suspense, type ReactNode } from 'react';
import { createBrowserRouter, Navigate, useLocation } from 'react-router';
import { MENU } from '@ev/core';
import RouteError from '../screens/RouteError.tsx';
import { getToken } from '../api/token.ts';
import { Loading } from './Loading.tsx';
import { lazyScreen } from './lazy-screen.ts';
import { CUSTOM_SCREENS, hasScreen, type CustomScreen } from './screens.ts';
import type { Mode } from '../resources/ResourceRoute.tsx';

// Split by route: the signed-in shell (antd, every text) and each screen load on demand, each given up after
// the spec's chunk-load timeout; the sign-in page needs none of it.
const LoginPage = lazyScreen(() => import('../screens/LoginPage.tsx'));
const ErrorPage = lazyScreen(() => import('../screens/ErrorPage.tsx'));
const Shell = lazyScreen(() => import('./Shell.tsx'));
const HomePage = lazyScreen(() => import('../screens/HomePage.tsx'));
const ProfilePage = lazyScreen(() => import('../screens/ProfilePage.tsx'));
const RnpPage = lazyScreen(() => import('../screens/rnp/RnpPage.tsx'));
const TesterPage = lazyScreen(() => import('../screens/tester/TesterPage.tsx'));
const LmsDashboardPage = lazyScreen(() => import('../screens/lms/LmsDashboardPage.tsx'));
const RealtimeLogPage = lazyScreen(() => import('../screens/lms/RealtimeLogPage.tsx'));
const QuickInfoPage = lazyScreen(() => import('../screens/dashboard/QuickInfoPage.tsx'));
const ConfigFleetPage = lazyScreen(() => import('../screens/config-fleet/ConfigFleetPage.tsx'));
const NotAvailablePage = lazyScreen(() => import('../screens/NotAvailablePage.tsx'));
const ResourceRoute = lazyScreen(() => import('../resources/ResourceRoute.tsx'));

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

const customScreenCode: Record<CustomScreen, { preload: () => Promise<unknown> }> = {
  rnp: RnpPage,
  'user/profile': ProfilePage,
  'test/cp_request': TesterPage,
  'lms/cp_simulator': TesterPage,
  'v2/quickinfo': QuickInfoPage,
  'lms/dashboard': LmsDashboardPage,
  'realtime/log': RealtimeLogPage,
  'config/fleet': ConfigFleetPage,
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

/**
 * The code the portal opens with, fetched before the first drawing (main.tsx waits for it): the shell and the screen
 * side by side rather than one after the other, drawn at once rather than through Suspense fallbacks (lazy-screen.ts).
 * The wait ends with the shell's code: a screen whose code is still on its way shows its spinner inside the layout.
 * A failed or slow fetch is left to the screen's own load, which shows the error page.
 */
export async function openingScreenCode(): Promise<void> {
  const path = basename === '/' ? window.location.pathname : window.location.pathname.slice(basename.length);
  const [first = '', ...rest] = path.split('/').filter(Boolean);
  if (first === 'error') return void (await ErrorPage.preload());
  if (!getToken() || first === 'login') return void (await LoginPage.preload());
  const custom = CUSTOM_SCREENS.find((key) => key === [first, ...rest].slice(0, key.split('/').length).join('/'));
  const screen = !first
    ? HomePage.preload()
    : custom
      ? customScreenCode[custom].preload()
      : hasScreen(first)
        ? ResourceRoute.preload().then((module) => {
            const route = module as typeof import('../resources/ResourceRoute.tsx');
            const mode = modeOf(rest);
            // Ahead of the list only: a session gone (401) is the sign-in's business, not this prefetch's.
            if (mode === 'list') route.prefetchOpeningList(first).catch(() => undefined);
            return route.preloadMode(mode);
          })
        : Promise.resolve();
  screen.catch(() => undefined);
  await Shell.preload();
  await Promise.race([screen, Promise.resolve()]);
}

/** The generic screen a resource path after its key names (the routes above). */
function modeOf(rest: string[]): Mode {
  if (rest.length === 0) return 'list';
  if (rest[0] === 'create') return 'create';
  if (rest[1] === 'search') return 'search';
  if (rest[1] === 'edit') return 'edit';
  if (rest[1] === 'EditView') return 'editview';
  return 'view';
}

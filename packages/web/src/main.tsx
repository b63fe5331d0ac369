import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import './app/i18n.ts';
import { setAuthFailureHandler } from './api/client.ts';
import './app/base.css';
import { queryClient } from './app/query.ts';
import { getToken } from './api/token.ts';
import { meQuery } from './api/me.ts';
import { openingScreenCode, router } from './app/router.tsx';

// 401: the session is gone, sign in again. 403: spec §8 sends every forbidden call to /error/403 signed out.
setAuthFailureHandler((status) => {
  queryClient.clear();
  void router.navigate(status === 401 ? '/login' : '/error/403', { replace: true });
});

// Signed in: ask who the user is while the opening screen's code arrives, and draw once it is here (index.html
// shows a spinner until then), so that React draws the screen at once instead of through Suspense fallbacks.
if (getToken()) void queryClient.prefetchQuery(meQuery);
void openingScreenCode()
  .catch(() => undefined)
  .then(() =>
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </StrictMode>,
    ),
  );

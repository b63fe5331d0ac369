import './all-texts.ts';
import { AppProviders } from './AppProviders.tsx';
import { RequireAuth } from './RequireAuth.tsx';
import MainLayout from './layout/MainLayout.tsx';
import { keepStyles, restoreStyles } from './style-cache.ts';

// Before the shell's first drawing: antd finds the styles earlier visits generated (style-cache.ts).
restoreStyles();
keepStyles();

/**
 * The signed-in portal: all its texts, antd's providers, the guard that loads the user, and the layout
 * whose outlet shows each screen. One lazy chunk, so that the sign-in page loads none of it.
 */
export default function Shell() {
  return (
    <AppProviders>
      <RequireAuth>
        <MainLayout />
      </RequireAuth>
    </AppProviders>
  );
}

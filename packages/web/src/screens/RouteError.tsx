import { Navigate, useLocation, useRouteError } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ChunkLoadTimeout } from '../app/lazy-screen.ts';

/**
 * A screen that failed to render or to load its code (typically a new deployment replaced the chunks this page
 * refers to): offer a reload instead of React Router's developer page. Code that took too long goes to /error/408.
 * Plain markup (base.css): the failed code may be the component library itself.
 */
export default function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  const { pathname } = useLocation();
  // A screen whose code never arrived (spec part 1 §9): the error page, unless that is what did not load.
  if (error instanceof ChunkLoadTimeout && !pathname.startsWith('/error/')) return <Navigate to="/error/408" replace />;
  return (
    <div className="ev-error" role="alert">
      <h2>{t('msg.errorOccurred')}</h2>
      {error instanceof Error && <p>{error.message}</p>}
      <button type="button" className="ev-button" onClick={() => window.location.reload()}>
        {t('ui.error.reload')}
      </button>
    </div>
  );
}

import { useNavigate, useParams } from 'react-router';
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { getToken } from '../api/token.ts';
import '../app/all-texts.ts';
import { AppProviders } from '../app/AppProviders.tsx';

type Status = 403 | 404 | 500;

/** /error/{code}; also the catch-all 404 inside the layout. */
export default function ErrorPage({ code }: { code?: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const params = useParams();
  const value = Number(code ?? params.code);
  const status: Status | 'error' = value === 403 || value === 404 ? value : value >= 500 ? 500 : 'error';
  // 408: a screen's code did not arrive within the chunk-load timeout (app/lazy-screen.ts).
  const text =
    value === 403 ? t('msg.forbidden') : value === 404 ? t('msg.notFound') : value === 408 ? t('msg.network') : value >= 500 ? t('msg.serverError') : t('msg.errorOccurred');
  const signedIn = !!getToken();
  // Outside the signed-in shell (/error/{code}) too: its own providers, and every text (ui.error, msg).
  return (
    <AppProviders>
      <Result
        status={status}
        title={Number.isFinite(value) ? String(value) : t('msg.errorOccurred')}
        subTitle={text}
        extra={
          <Button type="primary" onClick={() => void navigate(signedIn ? '/' : '/login', { replace: true })}>
            {signedIn ? t('ui.error.backHome') : t('ui.error.toLogin')}
          </Button>
        }
      />
    </AppProviders>
  );
}

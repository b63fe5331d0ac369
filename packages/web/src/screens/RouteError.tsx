import { useRouteError } from 'react-router';
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * A screen that failed to render or to load its code (typically a new deployment replaced the chunks this page
 * refers to): offer a reload instead of React Router's developer page.
 */
export default function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  return (
    <Result
      status="error"
      title={t('msg.errorOccurred')}
      subTitle={error instanceof Error ? error.message : undefined}
      extra={
        <Button type="primary" onClick={() => window.location.reload()}>
          {t('ui.error.reload')}
        </Button>
      }
    />
  );
}

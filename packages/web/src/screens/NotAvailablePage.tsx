import { Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLabels } from '../app/labels.ts';

/** Pages of the menu that are not built yet: say so instead of failing. */
export default function NotAvailablePage({ pageKey }: { pageKey: string }) {
  const { t } = useTranslation();
  const { resourceName } = useLabels();
  return <Result status="info" title={resourceName(pageKey)} subTitle={t('ui.notAvailable.text')} />;
}

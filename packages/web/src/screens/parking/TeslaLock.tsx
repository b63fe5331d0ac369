import { Tooltip } from 'antd';
import { LockOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

/** In a Tesla bay's row, in place of the edit button: the parking system manages it (spec part 2 §4). */
export function TeslaLock() {
  const { t } = useTranslation();
  return (
    <Tooltip title={t('ui.parking.teslaLocked')}>
      <LockOutlined aria-label={t('ui.parking.teslaLocked')} data-testid="tesla-locked" style={{ padding: '0 7px', color: '#8c8c8c' }} />
    </Tooltip>
  );
}

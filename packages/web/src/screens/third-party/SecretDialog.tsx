import { Alert, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** The app secret, the one time it is shown (after creation or a new secret): copy it now. */
export function SecretDialog({ name, secret, onClose }: { name: string; secret: string | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      open={!!secret}
      title={t('ui.thirdParty.secretTitle', { name })}
      onOk={onClose}
      onCancel={onClose}
      okText={t('ui.thirdParty.copied')}
      cancelButtonProps={{ style: { display: 'none' } }}
      maskClosable={false}
      destroyOnHidden
    >
      <Alert type="warning" showIcon title={t('ui.thirdParty.secretWarning')} style={{ marginBottom: 16 }} />
      <Typography.Paragraph copyable={{ text: secret }} code data-testid="app-secret" style={{ fontSize: 15 }}>
        {secret}
      </Typography.Paragraph>
      <Typography.Text type="secondary">{t('ui.thirdParty.secretHint')}</Typography.Text>
    </Modal>
  );
}

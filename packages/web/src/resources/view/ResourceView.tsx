import { useNavigate } from 'react-router';
import { Alert, App, Button, Card, Result, Space, Spin, Tabs } from 'antd';
import { ArrowLeftOutlined, DeleteOutlined, EditOutlined, FilePdfOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { isLockedRecord, type ResourceDef } from '@ev/core';
import { ApiError, api } from '../../api/client.ts';
import { errorText } from '../../api/errors.ts';
import { useLabels } from '../../app/labels.ts';
import { usePermissions } from '../../app/session.tsx';
import { viewNotice, viewTabs } from '../overrides/index.ts';
import { useDeleteRecord } from '../use-delete.tsx';
import { useRecord } from '../use-record.ts';
import { RecordDescriptions } from './RecordDetails.tsx';

export function ResourceView({ def, id }: { def: ResourceDef; id: string }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const { resourceName } = useLabels();
  const perms = usePermissions();
  const record = useRecord(def, id, undefined, !!def.liveView);
  const confirmDelete = useDeleteRecord(def);

  if (record.isPending) return <Spin style={{ display: 'block', margin: 48 }} />;
  // A live refresh that fails keeps the record on the screen (and the open tab), said to be as last read.
  if (record.isError && !record.data) {
    const notFound = record.error instanceof ApiError && record.error.status === 404;
    return <Result status={notFound ? 404 : 'error'} title={errorText(record.error, t)} />;
  }

  // A record the definition locks (lockedWhen: a voucher campaign, a redeemed voucher) offers no edit or delete.
  const locked = isLockedRecord(def, record.data);
  const title = def.titleField && record.data[def.titleField] ? ` · ${String(record.data[def.titleField])}` : '';
  const pdf = () =>
    api.download(`/${def.key}/export/pdf/${encodeURIComponent(id)}`, { lang: i18n.language }, `${def.key}-${id}.pdf`).catch((err) => {
      void message.error(errorText(err, t));
    });
  const extra = (
    <Space wrap>
      <Button icon={<ArrowLeftOutlined />} onClick={() => void navigate(`/${def.key}`)}>
        {t('ui.actions.backToList')}
      </Button>
      {def.actions.includes('downloadPdf') && (
        <Button icon={<FilePdfOutlined />} onClick={() => void pdf()}>
          {t('ui.actions.pdf')}
        </Button>
      )}
      {perms.canEdit(def) && !locked && (
        <Button
          type="primary"
          icon={<EditOutlined />}
          onClick={() => void navigate(`/${def.key}/${encodeURIComponent(id)}/${def.actions.includes('edit') ? 'edit' : 'EditView'}`)}
        >
          {t('ui.actions.edit')}
        </Button>
      )}
      {perms.canDelete(def) && !locked && (
        <Button danger icon={<DeleteOutlined />} onClick={() => void confirmDelete(id, () => void navigate(`/${def.key}`))}>
          {t('ui.actions.delete')}
        </Button>
      )}
    </Space>
  );

  const details = <RecordDescriptions def={def} record={record.data} />;
  const tabs = viewTabs(def.key, record.data, perms);
  return (
    <Card title={`${resourceName(def.key)} #${id}${title}`} extra={extra}>
      {record.isError && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          title={t('ui.view.notRefreshed', { at: dayjs(record.dataUpdatedAt).format('YYYY-MM-DD HH:mm:ss'), error: errorText(record.error, t) })}
        />
      )}
      {viewNotice(def.key, record.data, perms)}
      {tabs.length ? (
        <Tabs items={[{ key: 'details', label: t('ui.view.details'), children: details }, ...tabs.map((tab) => ({ ...tab, label: t(tab.label) }))]} />
      ) : (
        details
      )}
    </Card>
  );
}

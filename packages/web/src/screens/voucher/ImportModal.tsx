import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, Modal, Progress, Select, Space, Table, Typography, Upload } from 'antd';
import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { api, ApiError } from '../../api/client.ts';
import { errorText } from '../../api/errors.ts';
import { useLabels } from '../../app/labels.ts';
import { readStoredText } from '../../resources/display.tsx';
import { fieldErrorText } from '../../resources/form/server-errors.ts';
import { useOptions } from '../../resources/options.ts';
import { uploadForm } from './upload.ts';

/** As the server's vouchers/import.ts allows. */
const MAX_ROWS = 100_000;
const MAX_MB = 10;

interface RowError {
  row: number;
  field: string;
  code: string;
  message: string;
}

/**
 * Voucher.xlsx import (spec part 2 §2, §5): a voucher campaign, an Excel file, the template to
 * start from. While the file uploads a progress bar shows; then either the count imported or every
 * bad row (nothing imported).
 */
export function ImportModal({ onClose }: { onClose(imported: boolean): void }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const { fieldLabel } = useLabels();
  const campaigns = useOptions(['campaign']).campaign ?? [];
  const [campaignId, setCampaignId] = useState<number>();
  const [file, setFile] = useState<File>();
  const [progress, setProgress] = useState<number>();
  const [missing, setMissing] = useState<{ campaign?: boolean; file?: boolean }>({});
  const [failure, setFailure] = useState<string>();
  const [rowErrors, setRowErrors] = useState<RowError[]>();
  const [imported, setImported] = useState<number>();
  const busy = progress !== undefined;
  const exists = (k: string) => i18n.exists(k);

  const submit = async () => {
    setMissing({ campaign: !campaignId, file: !file });
    if (!campaignId || !file) return;
    setFailure(undefined);
    setRowErrors(undefined);
    setImported(undefined);
    setProgress(0);
    const form = new FormData();
    form.append('campaignId', String(campaignId));
    form.append('file', file, file.name);
    const res = await uploadForm('/voucher/import', form, setProgress);
    setProgress(undefined);
    if (res.status === 200 && res.body?.status === 'success') {
      setImported(res.body.count);
      await queryClient.invalidateQueries({ queryKey: ['list', 'voucher'] });
    } else if (res.status === 200 && res.body?.status === 'error' && Array.isArray(res.body.errors)) {
      setRowErrors(res.body.errors);
    } else if (res.status === 400 && res.body?.fields) {
      const fields = Object.entries(res.body.fields as Record<string, string>);
      // The file's own problem is said in the message; a field's (campaign) by its key.
      setFailure(fields.some(([f]) => f === 'file') ? (res.body.errors as unknown[] | undefined)?.map((e) => readStoredText(e, t, i18n.language)).join('\n') : fields.map(([, c]) => fieldErrorText(c, t, exists)).join('\n'));
    } else setFailure(errorText(new ApiError(res.status, res.body), t));
  };

  return (
    <Modal
      open
      title={t('ui.voucherImport.title')}
      onCancel={() => onClose(imported !== undefined)}
      width={760}
      destroyOnHidden
      footer={[
        <Button key="close" onClick={() => onClose(imported !== undefined)}>
          {t('ui.common.cancel')}
        </Button>,
        <Button key="submit" type="primary" icon={<UploadOutlined />} loading={busy} onClick={() => void submit()} data-testid="import-submit">
          {t('ui.voucherImport.submit')}
        </Button>,
      ]}
    >
      <Form layout="vertical">
        <Form.Item
          label={t('ui.voucherImport.campaign')}
          required
          validateStatus={missing.campaign ? 'error' : undefined}
          help={missing.campaign ? t('ui.voucherImport.campaignNotChosen') : undefined}
        >
          <Select
            data-testid="import-campaign"
            showSearch={{ optionFilterProp: 'label' }}
            options={campaigns}
            value={campaignId}
            onChange={(v) => setCampaignId(v as number)}
            style={{ width: '100%' }}
          />
        </Form.Item>
        <Form.Item
          label={t('ui.voucherImport.file')}
          required
          validateStatus={missing.file ? 'error' : undefined}
          help={missing.file ? t('ui.voucherImport.fileNotChosen') : undefined}
          extra={t('ui.voucherImport.hint', { rows: MAX_ROWS.toLocaleString('en'), mb: MAX_MB })}
        >
          <Space wrap align="start">
            <Upload
              accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
              maxCount={1}
              beforeUpload={(f) => {
                setFile(f);
                return false;
              }}
              onRemove={() => setFile(undefined)}
              fileList={file ? [{ uid: 'file', name: file.name, status: 'done' }] : []}
            >
              <Button icon={<UploadOutlined />} data-testid="import-file">{t('ui.voucherImport.chooseFile')}</Button>
            </Upload>
            <Button type="link" icon={<DownloadOutlined />} onClick={() => void api.download('/voucher/import/template', undefined, 'Voucher.xlsx')}>
              {t('ui.voucherImport.template')}
            </Button>
          </Space>
        </Form.Item>
      </Form>
      {busy && (
        <div data-testid="import-progress">
          <Typography.Text type="secondary">{t('ui.voucherImport.uploading')}</Typography.Text>
          <Progress percent={progress} status="active" />
        </div>
      )}
      {failure && <Alert type="error" showIcon title={failure} style={{ whiteSpace: 'pre-line' }} data-testid="import-failure" />}
      {imported !== undefined && <Alert type="success" showIcon title={t('ui.voucherImport.success', { count: imported })} data-testid="import-success" />}
      {rowErrors && (
        <Space direction="vertical" style={{ width: '100%' }} data-testid="import-row-errors">
          <Alert type="error" showIcon title={t('ui.voucherImport.rowErrors', { count: rowErrors.length })} />
          <Table<RowError>
            size="small"
            rowKey={(r) => `${r.row}/${r.field}`}
            dataSource={rowErrors}
            pagination={rowErrors.length > 10 ? { pageSize: 10, showSizeChanger: false } : false}
            columns={[
              { key: 'row', dataIndex: 'row', title: t('ui.voucherImport.row'), width: 80 },
              { key: 'field', dataIndex: 'field', title: t('ui.voucherImport.field'), render: (f: string) => fieldLabel('voucher', f) },
              { key: 'problem', title: t('ui.voucherImport.problem'), render: (_: unknown, r) => fieldErrorText(r.code, t, exists) },
            ]}
          />
        </Space>
      )}
    </Modal>
  );
}

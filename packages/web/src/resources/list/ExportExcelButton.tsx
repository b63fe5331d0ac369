import { useState } from 'react';
import { App, Button } from 'antd';
import { FileExcelOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { EXPORT_ROW_LIMIT, type ColumnDef, type ResourceDef } from '@ev/core';
import { api, type Query } from '../../api/client.ts';
import { errorText } from '../../api/errors.ts';
import { useLabels } from '../../app/labels.ts';

interface Props {
  def: ResourceDef;
  /** The list's query (filters and sort); its page and size are left out. */
  query: Query;
  /** The columns the list shows, in order: the file's columns. */
  columns: ColumnDef[];
  /** The list's total (it may be an estimate): past the cap, the user is told before the file starts. */
  total?: number;
}

/** What to say before an export the server will cut (issue 30), or undefined when the whole list fits. */
export function capNotice(total: number | undefined, t: TFunction, lang: string, limit = EXPORT_ROW_LIMIT): { title: string; content: string } | undefined {
  if (total === undefined || total <= limit) return undefined;
  const n = (x: number) => x.toLocaleString(lang);
  return { title: t('ui.list.exportCapTitle', { limit: n(limit) }), content: t('ui.list.exportCap', { rows: n(total), limit: n(limit) }) };
}

/** How much of the file has arrived: "12.3 MB". */
export const received = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`;

/** The list's Excel export: a warning first when the file will be cut, then the download's progress as it arrives. */
export function ExportExcelButton({ def, query, columns, total }: Props) {
  const { t, i18n } = useTranslation();
  const { message, modal } = App.useApp();
  const { resourceName, fieldLabel } = useLabels();
  const [exporting, setExporting] = useState(false);

  const run = async () => {
    setExporting(true);
    const key = `export-${def.key}`;
    const progress = (text: string) => message.open({ key, type: 'loading', duration: 0, content: <span data-testid="export-progress">{text}</span> });
    progress(t('ui.list.exportPreparing'));
    let shownAt = 0;
    const { size: _size, page: _page, ...rest } = query;
    const shown = columns.filter((c) => c.display !== 'action');
    try {
      await api.download(
        `/${def.key}/export/excel`,
        {
          ...rest,
          headers: shown.map((c) => fieldLabel(def.key, c.field)),
          keys: shown.map((c) => c.field),
          sheet_name: resourceName(def.key),
          lang: i18n.language,
        },
        `${def.key}.xlsx`,
        (bytes) => {
          // Chunks arrive far more often than anyone reads: the message changes ten times a second at most.
          const now = performance.now();
          if (now - shownAt < 100) return;
          shownAt = now;
          progress(t('ui.list.exportProgress', { size: received(bytes) }));
        },
      );
      message.destroy(key);
    } catch (err) {
      message.destroy(key);
      void message.error(errorText(err, t));
    } finally {
      setExporting(false);
    }
  };

  const start = () => {
    const notice = capNotice(total, t, i18n.language);
    if (!notice) return void run();
    modal.confirm({ ...notice, okText: t('ui.list.exportStart'), cancelText: t('ui.common.cancel'), onOk: () => void run() });
  };

  return (
    <Button icon={<FileExcelOutlined />} loading={exporting} onClick={start}>
      {t('ui.list.exportExcel')}
    </Button>
  );
}

import { memo, useState } from 'react';
import { useNavigate } from 'react-router';
import { Alert, App, Button, Modal, Spin } from 'antd';
import { DeleteOutlined, EditOutlined, EyeOutlined, FilePdfOutlined, ProfileOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { isLockedRecord, type ResourceDef } from '@ev/core';
import { api } from '../../api/client.ts';
import { errorText } from '../../api/errors.ts';
import type { Permissions } from '../../app/session.tsx';
import { RecordDescriptions } from '../view/RecordDetails.tsx';
import { popView as overridePopView, rowActions } from '../overrides/index.ts';
import { useRecord } from '../use-record.ts';
import { useDeleteRecord } from '../use-delete.tsx';
import { HoverTooltip } from './HoverTooltip.tsx';

interface Props {
  def: ResourceDef;
  id: string | number;
  perms: Permissions;
  onDeleted: () => void;
  /** The row as listed, for the override's row buttons. */
  row?: Record<string, unknown>;
}

/** The pop-view's body: the resource override's when it has one (overrides/<key>.tsx), else the record's details. */
function PopViewBody({ def, id, perms }: { def: ResourceDef; id: string | number; perms: Permissions }) {
  const { t } = useTranslation();
  const record = useRecord(def, id);
  if (record.isPending) return <Spin />;
  if (record.isError) return <Alert type="error" showIcon title={errorText(record.error, t)} />;
  return overridePopView(def, record.data, perms) ?? <RecordDescriptions def={def} record={record.data} />;
}

/**
 * The per-row buttons the definition offers and the user may use. Memoized: a sort or a filter rebuilds the
 * list's columns, and the rows already drawn need not redraw their buttons for it.
 */
export const RowActions = memo(function RowActions({ def, id, perms, onDeleted, row }: Props) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { message } = App.useApp();
  // undefined until first opened: a list of 200 rows mounts no closed dialogs.
  const [popView, setPopView] = useState<boolean>();
  const confirmDelete = useDeleteRecord(def);
  const has = (a: ResourceDef['actions'][number]) => def.actions.includes(a);
  const path = `/${def.key}/${encodeURIComponent(String(id))}`;
  // A row the definition locks (lockedWhen: a redeemed voucher, an RSR not under penalty) offers no edit or delete.
  const locked = isLockedRecord(def, row);

  const pdf = () =>
    api.download(`/${def.key}/export/pdf/${encodeURIComponent(String(id))}`, { lang: i18n.language }, `${def.key}-${id}.pdf`).catch((err) => {
      void message.error(errorText(err, t));
    });

  return (
    <span style={{ display: 'inline-flex', alignItems: 'center' }}>
      {has('view') && (
        <HoverTooltip title={t('ui.actions.view')}>
          <Button type="link" size="small" icon={<EyeOutlined />} onClick={() => void navigate(path)} aria-label={t('ui.actions.view')} />
        </HoverTooltip>
      )}
      {perms.canEdit(def) && !locked && (
        <HoverTooltip title={t('ui.actions.edit')}>
          <Button
            type="link"
            size="small"
            icon={<EditOutlined />}
            aria-label={t('ui.actions.edit')}
            onClick={() => void navigate(has('edit') ? `${path}/edit` : `${path}/EditView`)}
          />
        </HoverTooltip>
      )}
      {has('popView') && (
        <HoverTooltip title={t('ui.actions.popView')}>
          <Button type="link" size="small" icon={<ProfileOutlined />} onClick={() => setPopView(true)} aria-label={t('ui.actions.popView')} />
        </HoverTooltip>
      )}
      {has('downloadPdf') && (
        <HoverTooltip title={t('ui.actions.pdf')}>
          <Button type="link" size="small" icon={<FilePdfOutlined />} onClick={() => void pdf()} aria-label={t('ui.actions.pdf')} />
        </HoverTooltip>
      )}
      {row && rowActions({ def, row, perms, reload: onDeleted })}
      {perms.canDelete(def) && !locked && (
        <HoverTooltip title={t('ui.actions.delete')}>
          <Button
            type="link"
            size="small"
            danger
            icon={<DeleteOutlined />}
            aria-label={t('ui.actions.delete')}
            onClick={() => confirmDelete(id, onDeleted)}
          />
        </HoverTooltip>
      )}
      {popView !== undefined && (
        <Modal
          open={popView}
          onCancel={() => setPopView(false)}
          footer={null}
          width={860}
          title={`${t('ui.actions.popView')} #${id}`}
          destroyOnHidden
        >
          <PopViewBody def={def} id={id} perms={perms} />
        </Modal>
      )}
    </span>
  );
});

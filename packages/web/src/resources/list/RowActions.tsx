import { memo, useMemo, useState, type ReactNode } from 'react';
import { useNavigate, type NavigateFunction } from 'react-router';
import { Alert, App, Modal, Spin } from 'antd';
import { DeleteOutlined, EditOutlined, EyeOutlined, FilePdfOutlined, ProfileOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { isLockedRecord, type ResourceDef } from '@ev/core';
import { api } from '../../api/client.ts';
import { errorText } from '../../api/errors.ts';
import type { Permissions } from '../../app/session.tsx';
import { RecordDescriptions } from '../view/RecordDetails.tsx';
import { popView as overridePopView, rowActions } from '../overrides/index.ts';
import { useRecord } from '../use-record.ts';
import { useDeleteRecord } from '../use-delete.tsx';
import { HoverTooltip } from './HoverTooltip.tsx';

/** The pop-view's body: the resource override's when it has one (overrides/<key>.tsx), else the record's details. */
function PopViewBody({ def, id, perms }: { def: ResourceDef; id: string | number; perms: Permissions }) {
  const { t } = useTranslation();
  const record = useRecord(def, id);
  if (record.isPending) return <Spin />;
  if (record.isError) return <Alert type="error" showIcon title={errorText(record.error, t)} />;
  return overridePopView(def, record.data, perms) ?? <RecordDescriptions def={def} record={record.data} />;
}

/** What every row's buttons share: made once for the list, not once for each of its rows. */
export interface RowTools {
  t: TFunction;
  lang: string;
  navigate: NavigateFunction;
  message: ReturnType<typeof App.useApp>['message'];
  confirmDelete: ReturnType<typeof useDeleteRecord>;
}

export function useRowTools(def: ResourceDef): RowTools {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const confirmDelete = useDeleteRecord(def);
  const lang = i18n.language;
  return useMemo(() => ({ t, lang, navigate, message, confirmDelete }), [t, lang, navigate, message, confirmDelete]);
}

/**
 * A row's icon button: a plain button styled as antd's small link button (app/base.css), since a 200-row page
 * of antd Buttons (each with its own contexts, wave effect and style hooks) was a good part of drawing the page.
 */
function RowButton({ title, icon, danger, onClick }: { title: string; icon: ReactNode; danger?: boolean; onClick(): void }) {
  return (
    <HoverTooltip title={title}>
      <button type="button" className={danger ? 'row-action row-action-danger' : 'row-action'} aria-label={title} onClick={onClick}>
        {icon}
      </button>
    </HoverTooltip>
  );
}

interface Props {
  def: ResourceDef;
  id: string | number;
  perms: Permissions;
  tools: RowTools;
  onDeleted: () => void;
  /** The row as listed, for the override's row buttons. */
  row?: Record<string, unknown>;
}

/**
 * The per-row buttons the definition offers and the user may use. Memoized: a sort or a filter rebuilds the
 * list's columns, and the rows already drawn need not redraw their buttons for it.
 */
export const RowActions = memo(function RowActions({ def, id, perms, tools, onDeleted, row }: Props) {
  const { t, navigate } = tools;
  // undefined until first opened: a list of 200 rows mounts no closed dialogs.
  const [popView, setPopView] = useState<boolean>();
  const has = (a: ResourceDef['actions'][number]) => def.actions.includes(a);
  const path = `/${def.key}/${encodeURIComponent(String(id))}`;
  // A row the definition locks (lockedWhen: a redeemed voucher, an RSR not under penalty) offers no edit or delete.
  const locked = isLockedRecord(def, row);

  const pdf = () =>
    api.download(`/${def.key}/export/pdf/${encodeURIComponent(String(id))}`, { lang: tools.lang }, `${def.key}-${id}.pdf`).catch((err) => {
      void tools.message.error(errorText(err, t));
    });

  return (
    <span className="row-actions">
      {has('view') && (
        <RowButton title={t('ui.actions.view')} icon={<EyeOutlined />} onClick={() => void navigate(path)} />
      )}
      {perms.canEdit(def) && !locked && (
        <RowButton
          title={t('ui.actions.edit')}
          icon={<EditOutlined />}
          onClick={() => void navigate(has('edit') ? `${path}/edit` : `${path}/EditView`)}
        />
      )}
      {has('popView') && (
        <RowButton title={t('ui.actions.popView')} icon={<ProfileOutlined />} onClick={() => setPopView(true)} />
      )}
      {has('downloadPdf') && (
        <RowButton title={t('ui.actions.pdf')} icon={<FilePdfOutlined />} onClick={() => void pdf()} />
      )}
      {row && rowActions({ def, row, perms, reload: onDeleted })}
      {perms.canDelete(def) && !locked && (
        <RowButton title={t('ui.actions.delete')} icon={<DeleteOutlined />} danger onClick={() => void tools.confirmDelete(id, onDeleted)} />
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

import { lazy, Suspense, useState, type Key } from 'react';
import { App, Button } from 'antd';
import { EditOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { followMassUpdate } from './mass-update-job.tsx';

/** Loaded when first opened: the popup is not needed to show the list. */
const MassUpdateModal = lazy(() => import('./MassUpdateModal.tsx'));

/**
 * Spec part 1 §2: the chargers list's header button, enabled only when rows are selected. A saved update closes
 * the popup (§7) and clears the selection; its sending is followed in a notification.
 */
export function MassUpdateButton({ selected, onDone }: { selected: Key[]; onDone(): void }) {
  const { t } = useTranslation();
  const { notification } = App.useApp();
  const [open, setOpen] = useState<number[] | null>(null);
  return (
    <>
      <Button icon={<EditOutlined />} disabled={!selected.length} onClick={() => setOpen(selected.map(Number))} data-testid="mass-update">
        {t('ui.massUpdate.button')}
      </Button>
      {open && (
        <Suspense fallback={null}>
          <MassUpdateModal
            cpIds={open}
            onClose={(jobId) => {
              setOpen(null);
              if (!jobId) return;
              followMassUpdate(notification, t, jobId, open.length);
              onDone();
            }}
          />
        </Suspense>
      )}
    </>
  );
}

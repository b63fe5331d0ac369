import { lazy, Suspense, useState, type Key } from 'react';
import { Button } from 'antd';
import { EditOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

/** Loaded when first opened: the popup is not needed to show the list. */
const MassUpdateModal = lazy(() => import('./MassUpdateModal.tsx'));

/** Spec part 1 §2: the chargers list's header button, enabled only when rows are selected. */
export function MassUpdateButton({ selected, onDone }: { selected: Key[]; onDone(): void }) {
  const { t } = useTranslation();
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
            onClose={(applied) => {
              setOpen(null);
              if (applied) onDone();
            }}
          />
        </Suspense>
      )}
    </>
  );
}

import { useState } from 'react';
import { Button } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { createPrivilege } from '@ev/core';
import { lazyPart } from '../../app/lazy-part.tsx';
import type { ListActionsContext } from './types.ts';

const ImportModal = lazyPart(() => import('../../screens/voucher/ImportModal.tsx').then((m) => m.ImportModal));

function ImportButton({ reload }: { reload(): void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button icon={<UploadOutlined />} onClick={() => setOpen(true)} data-testid="voucher-import">
        {t('ui.voucherImport.button')}
      </Button>
      {open && (
        <ImportModal
          onClose={(imported) => {
            setOpen(false);
            if (imported) reload();
          }}
        />
      )}
    </>
  );
}

/** The list's Voucher.xlsx import (spec part 2 §2), for users who may create vouchers. */
export const listActions = ({ perms, reload }: ListActionsContext) =>
  perms.has(createPrivilege('voucher')) ? <ImportButton reload={reload} /> : null;

import { lazy, Suspense, useState } from 'react';
import { Button, Spin } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { createPrivilege, readPrivilege } from '@ev/core';
import type { Permissions } from '../../app/session.tsx';
import type { RecordData } from '../use-record.ts';
import type { ListActionsContext, ViewTab } from './types.ts';

const NewJobModal = lazy(() => import('../../screens/firmware/NewJobModal.tsx'));
const JobProgress = lazy(() => import('../../screens/firmware/JobProgress.tsx'));

function NewJobButton() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button type="primary" icon={<PlusOutlined />} onClick={() => setOpen(true)} data-testid="firmware-new-job">
        {t('ui.firmware.newJob')}
      </Button>
      {open && (
        <Suspense fallback={null}>
          <NewJobModal onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}

/** Firmware jobs (issue 29): the list's New job button (CREATE_FIRMWARE_JOBS) and the job's live progress. */
export const listActions = ({ perms }: ListActionsContext) => (perms.has(createPrivilege('firmware_jobs')) ? <NewJobButton /> : null);

export const viewTabs = (record: RecordData, perms: Permissions): ViewTab[] =>
  perms.has(readPrivilege('firmware_jobs'))
    ? [{
        key: 'progress',
        label: 'ui.firmware.progress',
        children: (
          <Suspense fallback={<Spin />}>
            <JobProgress jobId={Number(record.firmware_job_id)} />
          </Suspense>
        ),
      }]
    : [];

import type { ResourceDef } from '../resource.ts';
import { col, dateCol, idCol, intCol, selectCol, textCol } from './build.ts';
import { COMMON_LABELS as C, labels } from './labels.ts';

/**
 * A target charger's state in a firmware update job, in the order it normally goes. Sent: the charger
 * accepted UpdateFirmware; Downloading … InstallationFailed: its FirmwareStatusNotification; Verified /
 * Mismatch: the version of its next BootNotification equals / differs from the image's; NotSent: it was
 * offline (or did not answer) when its turn came; Stopped: the job was halted before its turn.
 */
export const FIRMWARE_JOB_STATES = [
  'Queued', 'Sent', 'Downloading', 'Downloaded', 'Installing', 'Installed', 'Verified',
  'DownloadFailed', 'InstallationFailed', 'Mismatch', 'NotSent', 'Stopped',
] as const;
export type FirmwareJobState = (typeof FIRMWARE_JOB_STATES)[number];
/** The states that count against a job's maximum failure share. */
export const FIRMWARE_FAILED_STATES: readonly FirmwareJobState[] = ['DownloadFailed', 'InstallationFailed', 'Mismatch'];
/** A job runs until every charger had its turn; a user or the failure share stops it. */
export const FIRMWARE_JOB_STATUSES = ['Running', 'Finished', 'Stopped'] as const;
export type FirmwareJobStatus = (typeof FIRMWARE_JOB_STATUSES)[number];
/** What a job targets: target_ids are sites, zones or chargers. */
export const FIRMWARE_TARGET_KINDS = ['site', 'zone', 'chargers'] as const;
export type FirmwareTargetKind = (typeof FIRMWARE_TARGET_KINDS)[number];

/**
 * Firmware update jobs (issue 29): only listed and viewed through the engine (no create or edit action);
 * created (CREATE_FIRMWARE_JOBS) and stopped (EDIT_FIRMWARE_JOBS) by packages/server/src/firmware/routes.ts,
 * which runs them. Not readOnly: that would leave the two privileges out of the role settings.
 */
export const firmware_jobs: ResourceDef = {
  key: 'firmware_jobs',
  labels: labels(['Firmware Update Jobs', '韌體更新工作'], {
    firmware_job_id: ['Job ID', '工作編號'],
    firmware_id: ['Firmware', '韌體'],
    target_kind: ['Targets', '對象'],
    retrieve_date: ['Retrieve At', '下載時間'],
    retries: ['Retries', '重試次數'],
    retry_interval: ['Retry Interval (s)', '重試間隔（秒）'],
    max_failure_pct: ['Max Failure Share (%)', '最高失敗比例（%）'],
    wave_size: ['Chargers at a Time', '每批充電樁數'],
    status: ['Status', '狀態'],
    stop_reason: ['Stop Reason', '停止原因'],
    total: ['Chargers', '充電樁數'],
    created_by_name: ['Created By', '建立者'],
    finished_at: ['Ended At', '結束時間'],
    cre_dttm: C.cre_dttm,
  }),
  table: 'firmware_jobs',
  idField: 'firmware_job_id',
  columns: [
    idCol('firmware_job_id'),
    selectCol('firmware_id', 'firmware'),
    col('target_kind', 'enum', 'text', { filter: 'select', options: 'firmware_target_kind' }),
    intCol('total'),
    col('status', 'enum', 'text', { sortable: true, filter: 'select', options: 'firmware_job_status' }),
    textCol('stop_reason', { hiddenInList: true }),
    dateCol('retrieve_date'),
    intCol('retries', { hiddenInList: true }),
    intCol('retry_interval', { hiddenInList: true }),
    intCol('max_failure_pct', { hiddenInList: true }),
    intCol('wave_size', { hiddenInList: true }),
    textCol('created_by_name'),
    dateCol('cre_dttm'),
    dateCol('finished_at'),
  ],
  fields: [],
  defaultSort: { field: 'firmware_job_id', order: 'desc' },
  actions: ['view', 'excel'],
};

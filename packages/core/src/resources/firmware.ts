import type { ResourceDef } from '../resource.ts';
import { dateCol, fld, idCol, textCol, textFld } from './build.ts';
import { COMMON_LABELS as C, labels } from './labels.ts';

/** Where a charger may download a firmware image from (OCPP 1.6 UpdateFirmware.location is a URI). */
export const FIRMWARE_URL_PATTERN = /^(https?|ftp):\/\/[^\s/?#]+[^\s]*$/i;

/**
 * Firmware images (issue 29): a version, the chargers it fits (vendor and model as the chargers report
 * them in BootNotification, cps.charge_point_vendor / charge_point_model; blank fits any) and the URL
 * the chargers download it from. Update jobs (firmware_jobs) send one to chargers.
 */
export const firmware: ResourceDef = {
  key: 'firmware',
  labels: labels(['Firmware Images', '韌體映像'], {
    firmware_id: ['Firmware ID', '韌體編號'],
    version: ['Version', '版本'],
    charge_point_vendor: ['Charger Vendor', '充電樁供應商'],
    charge_point_model: ['Charger Model', '充電樁型號'],
    url: ['Download URL', '下載網址'],
    checksum: ['Checksum', '校驗碼'],
    notes: ['Notes', '備註'],
    cre_dttm: C.cre_dttm,
    lupd_dttm: C.lupd_dttm,
  }),
  table: 'firmware',
  idField: 'firmware_id',
  titleField: 'version',
  asOption: { label: ['version', 'charge_point_model'] },
  columns: [
    idCol('firmware_id'),
    textCol('version'),
    textCol('charge_point_vendor'),
    textCol('charge_point_model'),
    textCol('url'),
    textCol('checksum', { hiddenInList: true }),
    textCol('notes', { hiddenInList: true }),
    dateCol('cre_dttm'),
    dateCol('lupd_dttm', { viewOnly: true }),
  ],
  fields: [
    textFld('version', { required: true, maxLength: 50 }),
    textFld('charge_point_vendor', { maxLength: 20 }),
    textFld('charge_point_model', { maxLength: 20 }),
    // OCPP 1.6 anyURI; the scheme is checked by the server's hook (http, https, ftp).
    textFld('url', { required: true, maxLength: 512 }),
    textFld('checksum', { maxLength: 128 }),
    fld('notes', 'textarea', 'text', { maxLength: 2000 }),
  ],
  defaultSort: { field: 'firmware_id', order: 'desc' },
  softDelete: true,
  actions: ['create', 'edit', 'view', 'delete', 'excel'],
};

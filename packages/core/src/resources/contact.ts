import { PART2_PAGE_SIZES, type ResourceDef } from '../resource.ts';
import { boolCol, boolFld, dateCol, fld, idCol, textCol, textFld } from './build.ts';
import { COMMON_LABELS as C, labels } from './labels.ts';

/** People alerts are mailed to; contact groups name them. An e-mail address belongs to one contact. */
export const contact: ResourceDef = {
  key: 'contact',
  labels: labels(['Contacts', '聯絡人'], {
    contact_id: ['Contact ID', '聯絡人編號'],
    name: C.name,
    email: ['Email', '電郵'],
    status: C.active,
    cre_dttm: C.cre_dttm,
    lupd_dttm: C.lupd_dttm,
  }),
  table: 'contact',
  idField: 'contact_id',
  titleField: 'name',
  asOption: { label: 'name' },
  columns: [
    idCol('contact_id'),
    textCol('name'),
    textCol('email'),
    boolCol('status'),
    dateCol('cre_dttm'),
    dateCol('lupd_dttm', { viewOnly: true }),
  ],
  fields: [
    textFld('name', { required: true }),
    fld('email', 'email', 'text', { required: true, maxLength: 255 }),
    boolFld('status', { default: 1 }),
  ],
  defaultSort: { field: 'contact_id', order: 'desc' },
  // The spec's option calls ask for enabled records with enable_flag=1.
  paramAliases: { enable_flag: 'status' },
  softDelete: true,
  pageSizes: PART2_PAGE_SIZES,
  actions: ['create', 'edit', 'view', 'delete', 'excel'],
};

import { PART2_PAGE_SIZES, type ResourceDef } from '../resource.ts';
import { boolCol, boolFld, fld, idCol, selectCol, selectFld, textCol, textFld } from './build.ts';
import { COMMON_LABELS as C, labels } from './labels.ts';

/** RFID cards accepted by Authorize: everywhere (no site, no charger), at a site, or at a charger. */
export const auth_card: ResourceDef = {
  key: 'auth_card',
  labels: labels(['Authorised Cards', '授權卡'], {
    id: C.id,
    name: ['Card Name', '卡名稱'],
    rfid_cards: ['RFID Cards', 'RFID 卡號'],
    loc: ['Sites', '充電站'],
    cp: ['Chargers', '充電樁'],
    active: C.active,
  }),
  table: 'auth_card',
  idField: 'id',
  titleField: 'name',
  site: { column: 'loc' },
  columns: [
    idCol('id'),
    textCol('name'),
    textCol('rfid_cards'),
    selectCol('loc', 'cp_locs'),
    selectCol('cp', 'cps'),
    boolCol('active'),
  ],
  fields: [
    textFld('name', { required: true }),
    fld('rfid_cards', 'textarea', 'text', { required: true, maxLength: 20000 }),
    selectFld('loc', 'cp_locs'),
    selectFld('cp', 'cps'),
    boolFld('active', { default: 1 }),
  ],
  pageSizes: PART2_PAGE_SIZES,
  actions: ['create', 'edit', 'view', 'delete', 'excel'],
};

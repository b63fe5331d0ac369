import type { ResourceDef } from '../resource.ts';
import { col, dateCol, fld, idCol, selectCol, selectFld, textCol, textFld } from './build.ts';
import { COMMON_LABELS as C, labels } from './labels.ts';

/**
 * A site's load-management profile (spec part 1 §3). Mode and site are fixed after creation: the
 * zone entries (GET/PUT /api/zone_lms_profiles, the view's Zones tab) are bounded by that site's
 * zones and that mode's rule. Deleting one in use by a site with LMS enabled is refused (hook).
 */
export const lms_profiles: ResourceDef = {
  key: 'lms_profiles',
  labels: labels(['LMS Profiles', '負載管理設定檔'], {
    lms_profile_id: ['Profile ID', '設定檔編號'],
    name: ['Profile Name', '設定檔名稱'],
    cp_loc: C.loc_id,
    mode: ['Mode', '模式'],
    cre_dttm: C.cre_dttm,
    lupd_dttm: C.lupd_dttm,
  }),
  table: 'lms_profiles',
  idField: 'lms_profile_id',
  titleField: 'name',
  // A site picks among profiles by name; the site in brackets tells same-named ones apart.
  asOption: { label: 'name', qualifiedBy: 'cp_loc' },
  site: { column: 'cp_loc' },
  columns: [
    idCol('lms_profile_id'),
    textCol('name'),
    selectCol('cp_loc', 'cp_locs'),
    col('mode', 'enum', 'text', { sortable: true, filter: 'select', options: 'lms_mode' }),
    dateCol('cre_dttm', { hiddenInList: true }),
    dateCol('lupd_dttm'),
  ],
  fields: [
    textFld('name', { required: true }),
    selectFld('cp_loc', 'cp_locs', { required: true, lockedAfterCreate: true }),
    fld('mode', 'select', 'text', { options: 'lms_mode', required: true, lockedAfterCreate: true }),
  ],
  softDelete: true,
  actions: ['create', 'edit', 'view', 'delete', 'excel'],
};

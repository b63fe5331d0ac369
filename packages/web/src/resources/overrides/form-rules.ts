import { isTrue } from '../display.tsx';

/**
 * Fields a form disables from the values being edited.
 * users / user_profile: with cp_loc_flag set the user sees every site, so the site picker is off (spec part 1 §3).
 */
export function disabledByValues(key: string, field: string, values: Record<string, unknown> | undefined): boolean {
  if ((key === 'users' || key === 'user_profile') && field === 'loc_id') return isTrue(values?.cp_loc_flag);
  return false;
}

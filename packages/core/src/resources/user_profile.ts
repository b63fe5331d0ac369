import { PART2_PAGE_SIZES, type ResourceDef } from '../resource.ts';
import { labels } from './labels.ts';
import { userFields, users } from './users.ts';

/** The signed-in user's own record (/user/profile): same table, no privilege needed for oneself. */
export const user_profile: ResourceDef = {
  ...users,
  key: 'user_profile',
  labels: labels(['My Profile', '個人資料'], userFields),
  // Through the generic routes it is the users resource; one's own profile has its own routes.
  privilegeKey: 'users',
  fields: users.fields.filter((f) => ['name', 'email', 'password', 'confirm_password'].includes(f.field)),
  defaultFilters: undefined,
  pageSizes: PART2_PAGE_SIZES,
  actions: ['view', 'edit'],
};

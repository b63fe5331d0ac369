import type { ResourceLabels } from '../types.ts';
import { portal_action_log } from './audit.ts';
import { auth_card } from './auth-card.ts';
import { cp_connectors, cps } from './cps.ts';
import { privileges, roles } from './roles.ts';
import { cp_requests, cp_sessions, cp_sessions_all, kmb_cp_sessions } from './sessions.ts';
import { cp_locs, cp_pow, cp_zones } from './sites.ts';
import { user_log, user_profile, users } from './users.ts';

/** Labels per resource key; one file per resource family beside this one. */
export const RESOURCE_LABELS: Record<string, ResourceLabels> = {
  users,
  user_profile,
  user_log,
  roles,
  privileges,
  cp_locs,
  cp_zones,
  cp_pow,
  cps,
  cp_connectors,
  cp_requests,
  cp_sessions,
  cp_sessions_all,
  kmb_cp_sessions,
  auth_card,
  portal_action_log,
};

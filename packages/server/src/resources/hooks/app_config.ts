import { P } from '@ev/core';
import type { AuthUser } from '../../auth/session.ts';
import { badRequest, notPermitted } from '../../http/errors.ts';
import { settingValueAllowed } from '../../settings.ts';
import type { ResourceHooks } from './types.ts';

/**
 * Whether the user may change an entry of this authority: Admin entries (before or after the
 * write) need READ_APP_CONFIG_ADMIN on top of EDIT_/CREATE_APP_CONFIG, which the engine checks.
 */
export function mayChangeAuthority(user: AuthUser, authority: unknown): boolean {
  return authority !== 'Admin' || user.privileges.has(P.APP_CONFIG_ADMIN);
}

/** app_config: the authority rule and the known keys' values (server settings.ts). */
export const hooks: ResourceHooks = {
  async beforeWrite({ user, old }, data) {
    if (!mayChangeAuthority(user, old?.authority)) throw notPermitted('config_value');
    if (!mayChangeAuthority(user, data.authority)) throw notPermitted('authority');
    const key = String(data.config_key ?? old?.config_key);
    if (typeof data.config_value === 'string' && !settingValueAllowed(key, data.config_value)) {
      throw badRequest(`config_value: invalid for ${key}`, { config_value: 'invalid' });
    }
    return data;
  },
};

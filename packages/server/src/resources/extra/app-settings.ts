import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { editPrivilege, HOME_SCREENS, readPrivilege } from '@ev/core';
import { requirePrivileges } from '../../auth/guard.ts';
import { parseBody } from '../../http/parse.ts';
import { getSetting, setSetting } from '../../settings.ts';
import { writeAudit } from '../audit.ts';

const SettingsBody = z.strictObject({ home_screen: z.enum(HOME_SCREENS) });

/** The global UI settings (home screen behaviour), part of app_config. */
export function appSettingsRoutes(app: FastifyInstance) {
  app.get('/api/app/settings', async (req) => {
    requirePrivileges(req, readPrivilege('app_config'));
    return { home_screen: await getSetting(app.db, 'home_screen') };
  });
  app.put('/api/app/settings', async (req) => {
    const user = requirePrivileges(req, editPrivilege('app_config'));
    const body = parseBody(SettingsBody, req.body);
    await app.db.tx(async (sql) => {
      const before = await getSetting(sql, 'home_screen');
      await setSetting(sql, 'home_screen', body.home_screen);
      await writeAudit(sql, user, { action: 'UPDATE', target: 'app_settings', targetId: 'home_screen', oldData: { home_screen: before }, newData: body });
    });
    return { status: 'success' };
  });
}

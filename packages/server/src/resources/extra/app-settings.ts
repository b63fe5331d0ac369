import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { editPrivilege, HOME_SCREENS, readPrivilege } from '@ev/core';
import { requirePrivileges } from '../../auth/guard.ts';
import { notPermitted } from '../../http/errors.ts';
import { getSetting, setSetting } from '../../settings.ts';
import { writeAudit } from '../audit.ts';
import { mayChangeAuthority } from '../hooks/app_config.ts';

const SettingsBody = z.strictObject({ home_screen: z.enum(HOME_SCREENS) });
const Settings = z.object({ home_screen: z.enum(HOME_SCREENS) });
const Saved = z.object({ status: z.literal('success') });

/**
 * The home-screen setting alone, kept for the callers of this older shape: it reads and writes the
 * same app_config row as the app_config screens, under the same authority rule.
 */
export function appSettingsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get('/api/app/settings', { schema: { response: { 200: Settings } }, config: { doc: { summary: 'The portal settings (home screen)', privileges: [readPrivilege('app_config')] } } }, async (req) => {
    requirePrivileges(req, readPrivilege('app_config'));
    return { home_screen: (await getSetting(app.db, 'home_screen')) as z.infer<typeof Settings>['home_screen'] };
  });
  app.put('/api/app/settings', {
    schema: { body: SettingsBody, response: { 200: Saved } },
    config: { doc: { summary: 'Change the portal settings', privileges: [editPrivilege('app_config')], note: 'An Admin setting also needs READ_APP_CONFIG_ADMIN.' } },
  }, async (req) => {
    const user = requirePrivileges(req, editPrivilege('app_config'));
    const body = req.body;
    await app.db.tx(async (sql) => {
      const [row] = await sql.query(`SELECT id, authority FROM app_config WHERE config_key = 'home_screen' FOR UPDATE`);
      if (!mayChangeAuthority(user, row?.authority ?? 'Admin')) throw notPermitted('home_screen');
      const before = await getSetting(sql, 'home_screen');
      await setSetting(sql, 'home_screen', body.home_screen);
      await writeAudit(sql, user, { action: 'UPDATE', target: 'app_config', targetId: row?.id ?? 'home_screen', oldData: { home_screen: before }, newData: body });
    });
    return { status: 'success' as const };
  });
}

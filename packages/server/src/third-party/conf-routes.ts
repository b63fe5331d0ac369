import { createPrivilege, editPrivilege, getResource } from '@ev/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePrivileges } from '../auth/guard.ts';
import { hashPassword } from '../crypto/passwords.ts';
import { notFound } from '../http/errors.ts';
import { idParams } from '../http/schema.ts';
import { recordSchema } from '../resources/api-doc.ts';
import { writeAudit } from '../resources/audit.ts';
import { createRecord } from '../resources/engine.ts';
import { newSecret, withCreatedSecret } from './secret.ts';

const KEY = 'third_party_conf';

/**
 * Third-party keys beside the engine: the create answer carries the new secret (once; the engine's
 * own create answers the stored record only), and a secret is removed or replaced on its own.
 */
export function thirdPartyConfRoutes(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const def = getResource(KEY)!;
  const apiKey = z.string().describe('The app\'s secret (X-Api-Key): answered this once, never again');
  const SecretAnswer = z.object({ status: z.literal('success'), data: z.object({ id: z.int(), api_key: apiKey }) });

  // Before the engine's POST /api/:key (a static path wins): the same create, plus the secret. Its body is the
  // engine's (checked per the definition by createRecord), so it has no schema of its own.
  app.post(`/api/${KEY}`, {
    schema: {
      description: `The body is the create of ${KEY} (its fields, as the engine's create takes them).`,
      response: { 200: z.object({ status: z.literal('success'), data: recordSchema(def, true).extend({ api_key: apiKey }) }) },
    },
    config: { doc: { summary: 'Create an app (answers its API key once)', privileges: [createPrivilege(KEY)] } },
  }, async (req) => {
    const user = requirePrivileges(req, createPrivilege(KEY));
    const { result, secret } = await withCreatedSecret(() => createRecord(app.db, def, req.body, user, app.config.timeZone));
    app.bus.emit('resourceChanged', { key: KEY, action: 'CREATE', id: Number(result.id), changed: Object.keys(req.body as object) });
    // The create hook always makes the secret (resources/hooks/third_party_conf.ts).
    return { status: 'success' as const, data: { ...result, api_key: secret! } };
  });

  /** The live conf, locked for the change; 404 when it does not exist or is in trash. */
  async function setSecretHash(id: number, hash: string | null, username: string, userId: number, action: string) {
    return app.db.tx(async (sql) => {
      const [row] = await sql.query(`SELECT id, key_name, app_id FROM third_party_conf WHERE id = $1 AND deleted_at IS NULL FOR UPDATE`, [id]);
      if (!row) throw notFound(`${KEY} ${id} does not exist`);
      await sql.query(`UPDATE third_party_conf SET api_key_hash = $2, lupd_dttm = now() WHERE id = $1`, [id, hash]);
      // The audit says what happened to the secret, never the secret or its hash.
      await writeAudit(sql, { id: userId, username }, { action: 'UPDATE', target: KEY, targetId: id, newData: { ...row, api_key: action }, remark: action });
      return row as { id: number; key_name: string; app_id: string };
    });
  }

  app.post(`/api/${KEY}/:id/removeSecret`, { schema: { params: idParams }, config: { doc: { summary: 'Remove an app\'s API key', privileges: [editPrivilege(KEY)] } } }, async (req) => {
    const user = requirePrivileges(req, editPrivilege(KEY));
    const { id } = req.params;
    await setSecretHash(id, null, user.username, user.id, 'secret removed');
    return { status: 'success' };
  });

  app.post(`/api/${KEY}/:id/newSecret`, {
    schema: { params: idParams, response: { 200: SecretAnswer } },
    config: { doc: { summary: 'Give an app a new API key (answered once)', privileges: [editPrivilege(KEY)] } },
  }, async (req) => {
    const user = requirePrivileges(req, editPrivilege(KEY));
    const { id } = req.params;
    const secret = newSecret();
    await setSecretHash(id, await hashPassword(secret), user.username, user.id, 'new secret');
    return { status: 'success' as const, data: { id, api_key: secret } };
  });
}

import { createPrivilege, editPrivilege, getResource } from '@ev/core';
import type { FastifyInstance } from 'fastify';
import { requirePrivileges } from '../auth/guard.ts';
import { hashPassword } from '../crypto/passwords.ts';
import { notFound } from '../http/errors.ts';
import { writeAudit } from '../resources/audit.ts';
import { createRecord, parseId } from '../resources/engine.ts';
import { newSecret, withCreatedSecret } from './secret.ts';

const KEY = 'third_party_conf';

/**
 * Third-party keys beside the engine: the create answer carries the new secret (once; the engine's
 * own create answers the stored record only), and a secret is removed or replaced on its own.
 */
export function thirdPartyConfRoutes(app: FastifyInstance): void {
  const def = getResource(KEY)!;

  // Before the engine's POST /api/:key (a static path wins): the same create, plus the secret.
  app.post(`/api/${KEY}`, { config: { doc: { summary: 'Create an app (answers its API key once)', privileges: [createPrivilege(KEY)] } } }, async (req) => {
    const user = requirePrivileges(req, createPrivilege(KEY));
    const { result, secret } = await withCreatedSecret(() => createRecord(app.db, def, req.body, user, app.config.timeZone));
    app.bus.emit('resourceChanged', { key: KEY, action: 'CREATE', id: Number(result.id), changed: Object.keys(req.body as object) });
    return { status: 'success', data: { ...result, api_key: secret } };
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

  app.post<{ Params: { id: string } }>(`/api/${KEY}/:id/removeSecret`, { config: { doc: { summary: 'Remove an app\'s API key', privileges: [editPrivilege(KEY)] } } }, async (req) => {
    const user = requirePrivileges(req, editPrivilege(KEY));
    const id = parseId(req.params.id);
    await setSecretHash(id, null, user.username, user.id, 'secret removed');
    return { status: 'success' };
  });

  app.post<{ Params: { id: string } }>(`/api/${KEY}/:id/newSecret`, { config: { doc: { summary: 'Give an app a new API key (answered once)', privileges: [editPrivilege(KEY)] } } }, async (req) => {
    const user = requirePrivileges(req, editPrivilege(KEY));
    const id = parseId(req.params.id);
    const secret = newSecret();
    await setSecretHash(id, await hashPassword(secret), user.username, user.id, 'new secret');
    return { status: 'success', data: { id, api_key: secret } };
  });
}

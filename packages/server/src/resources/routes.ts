import type { FastifyInstance, FastifyRequest } from 'fastify';
import { getResource, type ResourceDef } from '@ev/core';
import { currentUser } from '../auth/guard.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { requireAccess } from './access.ts';
import { checkDelete, createRecord, deleteRecord, getRecord, parseId, updateRecord } from './engine.ts';
import { checkExcelRequest, recordPdf, streamExcel } from './export.ts';
import { asList, parseListQuery } from './list-query.ts';
import { listRecords } from './list.ts';
import { loadOptions } from './options.ts';
import { columnVisible } from './sql.ts';
import { registerResourceExtras } from './extra/index.ts';

type KeyParams = { key: string };
type IdParams = { key: string; id: string };
type Query = Record<string, string | string[] | undefined>;

function definition(key: string): ResourceDef {
  const def = getResource(key);
  if (!def) throw notFound(`Unknown resource: ${key}`);
  return def;
}

/** The generic list / view / create / edit / delete / export routes of every resource definition. */
export function resourceRoutes(app: FastifyInstance) {
  const tz = app.config.timeZone;

  app.get('/api/options', { config: { doc: { summary: 'Option lists for forms and filters (?opts=key, repeated; lang)', privileges: [] } } }, async (req: FastifyRequest<{ Querystring: Query }>) => {
    const user = currentUser(req);
    const { opts, lang, ...rest } = req.query;
    const unknown = Object.keys(rest);
    if (unknown.length) throw badRequest(`Unknown parameter: ${unknown[0]}`, { [unknown[0]]: 'unknown_parameter' });
    return { options: await loadOptions(app.db, user, asList(opts), lang === 'zh-TW' ? 'zh-TW' : 'en') };
  });

  // Specific routes (zone assignment, roles and permissions, own profile) before the generic ones.
  registerResourceExtras(app);

  app.get<{ Params: KeyParams; Querystring: Query }>('/api/:key', { config: { doc: { summary: 'List', engine: 'list' } } }, async (req) => {
    const def = definition(req.params.key);
    const user = requireAccess(req, def, 'read');
    const q = parseListQuery(def, req.query, columnVisible(user));
    return { dataset: await listRecords(app.db, def, q, user, tz) };
  });

  app.get<{ Params: KeyParams; Querystring: Query }>('/api/:key/export/excel', { config: { doc: { summary: 'Export to Excel', engine: 'excel' } } }, async (req, reply) => {
    const def = definition(req.params.key);
    const user = requireAccess(req, def, 'read');
    if (!def.actions.includes('excel')) throw notFound(`${def.key} has no Excel export`);
    // sheet_name as the portal sends it; sheetName as the spec's field is named.
    const { headers, keys, sheet_name, sheetName, lang, ...listParams } = req.query;
    const excel = { headers: asList(headers), keys: asList(keys), sheetName: String(sheet_name ?? sheetName ?? def.key), lang: lang === 'zh-TW' ? 'zh-TW' as const : 'en' as const };
    checkExcelRequest(def, user, excel);
    const q = parseListQuery(def, listParams, columnVisible(user));
    reply
      .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header('content-disposition', `attachment; filename="${def.key}.xlsx"`);
    return reply.send(streamExcel(app.db, def, q, user, tz, excel));
  });

  app.get<{ Params: IdParams; Querystring: Query }>('/api/:key/export/pdf/:id', { config: { doc: { summary: 'One record as a PDF', engine: 'pdf' } } }, async (req, reply) => {
    const def = definition(req.params.key);
    const user = requireAccess(req, def, 'read');
    if (!def.actions.includes('downloadPdf')) throw notFound(`${def.key} has no PDF export`);
    const record = await getRecord(app.db, def, parseId(req.params.id), user, tz);
    const lang = req.query.lang === 'zh-TW' ? 'zh-TW' : 'en';
    reply.header('content-type', 'application/pdf').header('content-disposition', `attachment; filename="${def.key}-${req.params.id}.pdf"`);
    return reply.send(recordPdf(def, record, lang));
  });

  app.get<{ Params: IdParams }>('/api/:key/checkDelete/:id', { config: { doc: { summary: 'What a delete affects', engine: 'checkDelete' } } }, async (req) => {
    const def = definition(req.params.key);
    const user = requireAccess(req, def, 'delete');
    return checkDelete(app.db, def, parseId(req.params.id), user);
  });

  app.get<{ Params: IdParams }>('/api/:key/:id', { config: { doc: { summary: 'View', engine: 'view' } } }, async (req) => {
    const def = definition(req.params.key);
    const user = requireAccess(req, def, 'read');
    return getRecord(app.db, def, parseId(req.params.id), user, tz);
  });

  app.post<{ Params: KeyParams }>('/api/:key', { config: { doc: { summary: 'Create', engine: 'create' } } }, async (req) => {
    const def = definition(req.params.key);
    const user = requireAccess(req, def, 'create');
    const data = await createRecord(app.db, def, req.body, user, tz);
    app.bus.emit('resourceChanged', { key: def.key, action: 'CREATE', id: Number(data[def.idField]), changed: Object.keys(req.body as object) });
    return { status: 'success', data };
  });

  app.put<{ Params: IdParams }>('/api/:key/:id', { config: { doc: { summary: 'Edit', engine: 'edit' } } }, async (req) => {
    const def = definition(req.params.key);
    const user = requireAccess(req, def, 'edit');
    const id = parseId(req.params.id);
    const data = await updateRecord(app.db, def, id, req.body, user, tz);
    app.bus.emit('resourceChanged', { key: def.key, action: 'UPDATE', id, changed: Object.keys(req.body as object) });
    return { status: 'success', data };
  });

  app.delete<{ Params: IdParams }>('/api/:key/:id', { config: { doc: { summary: 'Delete', engine: 'delete' } } }, async (req, reply) => {
    const def = definition(req.params.key);
    const user = requireAccess(req, def, 'delete');
    const id = parseId(req.params.id);
    await deleteRecord(app.db, def, id, user);
    app.bus.emit('resourceChanged', { key: def.key, action: 'DELETE', id, changed: [] });
    return reply.type('text/plain').send('Deleted');
  });
}

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { getResource, LANGS, type ResourceDef } from '@ev/core';
import { currentUser } from '../auth/guard.ts';
import { notFound } from '../http/errors.ts';
import { noQuery, recordId, repeated } from '../http/schema.ts';
import { requireAccess } from './access.ts';
import { checkDelete, createRecord, deleteRecord, getRecord, updateRecord } from './engine.ts';
import { checkExcelRequest, recordPdf, streamExcel } from './export.ts';
import { parseListQuery, type Query } from './list-query.ts';
import { listRecords } from './list.ts';
import { loadOptions } from './options.ts';
import { columnVisible } from './sql.ts';
import { registerResourceExtras } from './extra/index.ts';
import { engineDocument } from './api-doc.ts';

const lang = z.enum(LANGS);

const OptionsQuery = z.strictObject({ opts: repeated(z.string()), lang: lang.optional() });
const OptionsAnswer = z.object({
  options: z.record(z.string(), z.array(z.object({ value: z.union([z.string(), z.number()]), label: z.string().nullable() }))),
});

// The key is any string: an unknown one is the engine's 404 (definition()). The querystring and body
// of a list, an export and a write depend on the definition: the engine checks them (list-query.ts,
// validate.ts) and resources/api-doc.ts documents them per definition.
const keyParams = z.strictObject({ key: z.string() });
const keyIdParams = z.strictObject({ key: z.string(), id: recordId });
/** Every parameter of a list as it arrives, checked by parseListQuery against the definition. */
const listQuery = z.record(z.string(), z.union([z.string(), z.array(z.string())]));
/** The export's own parameters; the others are the list's (parseListQuery). */
const excelQuery = z.looseObject({
  keys: repeated(z.string()).optional(),
  headers: repeated(z.string()).optional(),
  // sheet_name as the portal sends it; sheetName as the spec's field is named.
  sheet_name: z.string().optional(),
  sheetName: z.string().optional(),
  lang: lang.optional(),
});

function definition(key: string): ResourceDef {
  const def = getResource(key);
  if (!def) throw notFound(`Unknown resource: ${key}`);
  return def;
}

/** The generic list / view / create / edit / delete / export routes of every resource definition. */
export function resourceRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tz = app.config.timeZone;

  app.get('/api/options', {
    schema: { querystring: OptionsQuery, response: { 200: OptionsAnswer } },
    config: { doc: { summary: 'Option lists for forms and filters (opts: a list key, repeated)', privileges: [] } },
  }, async (req) => {
    const user = currentUser(req);
    return { options: await loadOptions(app.db, user, req.query.opts, req.query.lang ?? 'en') };
  });

  // Specific routes (zone assignment, roles and permissions, own profile) before the generic ones.
  registerResourceExtras(fastify);
  // The generic routes below are documented once per resource definition instead.
  app.describeOperations(engineDocument);

  app.get('/api/:key', { schema: { params: keyParams, querystring: listQuery }, config: { doc: { summary: 'List', engine: 'list' } } }, async (req) => {
    const def = definition(req.params.key);
    const user = requireAccess(req, def, 'read');
    const q = parseListQuery(def, req.query, columnVisible(user));
    return { dataset: await listRecords(app.db, def, q, user, tz) };
  });

  app.get('/api/:key/export/excel', { schema: { params: keyParams, querystring: excelQuery }, config: { doc: { summary: 'Export to Excel', engine: 'excel' } } }, async (req, reply) => {
    const def = definition(req.params.key);
    const user = requireAccess(req, def, 'read');
    if (!def.actions.includes('excel')) throw notFound(`${def.key} has no Excel export`);
    const { headers, keys, sheet_name, sheetName, lang, ...listParams } = req.query;
    const excel = { headers: headers ?? [], keys: keys ?? [], sheetName: sheet_name ?? sheetName ?? def.key, lang: lang ?? 'en' as const };
    checkExcelRequest(def, user, excel);
    const q = parseListQuery(def, listParams as Query, columnVisible(user), { export: true });
    reply
      .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header('content-disposition', `attachment; filename="${def.key}.xlsx"`);
    return reply.send(streamExcel(app.db, def, q, user, tz, excel));
  });

  app.get('/api/:key/export/pdf/:id', { schema: { params: keyIdParams, querystring: z.strictObject({ lang: lang.optional() }) }, config: { doc: { summary: 'One record as a PDF', engine: 'pdf' } } }, async (req, reply) => {
    const def = definition(req.params.key);
    const user = requireAccess(req, def, 'read');
    if (!def.actions.includes('downloadPdf')) throw notFound(`${def.key} has no PDF export`);
    const record = await getRecord(app.db, def, req.params.id, user, tz);
    reply.header('content-type', 'application/pdf').header('content-disposition', `attachment; filename="${def.key}-${req.params.id}.pdf"`);
    return reply.send(await recordPdf(app.db, def, user, record, req.query.lang ?? 'en'));
  });

  app.get('/api/:key/checkDelete/:id', { schema: { params: keyIdParams, querystring: noQuery }, config: { doc: { summary: 'What a delete affects', engine: 'checkDelete' } } }, async (req) => {
    const def = definition(req.params.key);
    const user = requireAccess(req, def, 'delete');
    return checkDelete(app.db, def, req.params.id, user);
  });

  app.get('/api/:key/:id', { schema: { params: keyIdParams, querystring: noQuery }, config: { doc: { summary: 'View', engine: 'view' } } }, async (req) => {
    const def = definition(req.params.key);
    const user = requireAccess(req, def, 'read');
    return getRecord(app.db, def, req.params.id, user, tz);
  });

  app.post('/api/:key', { schema: { params: keyParams, querystring: noQuery }, config: { doc: { summary: 'Create', engine: 'create' } } }, async (req) => {
    const def = definition(req.params.key);
    const user = requireAccess(req, def, 'create');
    const data = await createRecord(app.db, def, req.body, user, tz);
    app.bus.emit('resourceChanged', { key: def.key, action: 'CREATE', id: Number(data[def.idField]), changed: Object.keys(req.body as object) });
    return { status: 'success', data };
  });

  app.put('/api/:key/:id', { schema: { params: keyIdParams, querystring: noQuery }, config: { doc: { summary: 'Edit', engine: 'edit' } } }, async (req) => {
    const def = definition(req.params.key);
    const user = requireAccess(req, def, 'edit');
    const { id } = req.params;
    const data = await updateRecord(app.db, def, id, req.body, user, tz);
    app.bus.emit('resourceChanged', { key: def.key, action: 'UPDATE', id, changed: Object.keys(req.body as object) });
    return { status: 'success', data };
  });

  app.delete('/api/:key/:id', { schema: { params: keyIdParams, querystring: noQuery }, config: { doc: { summary: 'Delete', engine: 'delete' } } }, async (req, reply) => {
    const def = definition(req.params.key);
    const user = requireAccess(req, def, 'delete');
    const { id } = req.params;
    await deleteRecord(app.db, def, id, user);
    app.bus.emit('resourceChanged', { key: def.key, action: 'DELETE', id, changed: [] });
    return reply.type('text/plain').send('Deleted');
  });
}

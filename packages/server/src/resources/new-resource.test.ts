import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integer, pgTable, serial, smallint, text } from 'drizzle-orm/pg-core';
import {
  boolCol, boolFld, idCol, intCol, intFld, labels, RESOURCES, selectCol, selectFld, textCol, textFld, type ResourceDef,
} from '@ev/core';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { TABLE_COLUMNS, tableColumnsOf } from './registry.ts';

/**
 * A resource nobody wrote code for: a definition and its table, registered the way a module of
 * core/src/resources and a table of the Drizzle schema are, and nothing else. Every generic route
 * must serve it: list, create, edit, view, delete, exports, options, site scoping, audit.
 */
const gadgets = pgTable('test_gadgets', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  loc_id: integer('loc_id').notNull(),
  weight: integer('weight'),
  enable_flag: smallint('enable_flag').notNull().default(1),
});

const test_gadgets: ResourceDef = {
  key: 'test_gadgets',
  table: 'test_gadgets',
  idField: 'id',
  titleField: 'name',
  labels: labels(['Gadgets', '小工具'], {
    id: ['Gadget ID', '小工具編號'], name: ['Gadget Name', '小工具名稱'], loc_id: ['Site', '充電站'], weight: ['Weight', '重量'], enable_flag: ['Enabled', '啟用'],
  }),
  asOption: { label: 'name', only: { enable_flag: 1 } },
  site: { column: 'loc_id' },
  columns: [idCol('id'), textCol('name'), selectCol('loc_id', 'cp_locs'), intCol('weight'), boolCol('enable_flag')],
  fields: [
    textFld('name', { required: true, unique: 'already_exist' }),
    selectFld('loc_id', 'cp_locs', { required: true }),
    intFld('weight', { min: 0 }),
    boolFld('enable_flag', { default: 1 }),
  ],
  actions: ['create', 'edit', 'view', 'delete', 'excel', 'downloadPdf'],
};

describe('a new plain resource is one definition and one table', () => {
  let s: TestServer;
  let token: string;
  let site: number;
  const api = (method: string, path: string, body?: unknown) => s.api(method, path, { token, body });

  beforeAll(async () => {
    RESOURCES[test_gadgets.key] = test_gadgets;
    TABLE_COLUMNS.set(...tableColumnsOf(gadgets));
    s = await startTestServer();
    await s.db.query(`CREATE TABLE test_gadgets (id serial PRIMARY KEY, name text NOT NULL, loc_id integer NOT NULL REFERENCES cp_locs(loc_id),
      weight integer, enable_flag smallint NOT NULL DEFAULT 1)`);
    // Its privileges, as the seed adds them for every key of the spec, granted to the super admin.
    await s.db.query(`INSERT INTO privileges (name) VALUES ('READ_TEST_GADGETS'), ('CREATE_TEST_GADGETS'), ('EDIT_TEST_GADGETS')`);
    await s.db.query(`INSERT INTO role_privileges (role_id, privilege_id)
      SELECT r.id, p.id FROM roles r, privileges p WHERE r.role = 'super_admin' AND p.name LIKE '%_TEST_GADGETS'`);
    token = await s.login();
    site = (await api('POST', '/api/cp_locs', { address: 'Gadget Site' })).body.data.loc_id;
  });
  afterAll(async () => {
    delete RESOURCES[test_gadgets.key];
    TABLE_COLUMNS.delete('test_gadgets');
    await s.close();
  });

  it('creates, lists, sorts, filters, edits, views and deletes, with validation and audit', async () => {
    const a = await api('POST', '/api/test_gadgets', { name: 'Anvil', loc_id: site, weight: '40' });
    expect([a.status, a.body.data]).toEqual([200, expect.objectContaining({ name: 'Anvil', weight: 40, enable_flag: 1 })]);
    const b = await api('POST', '/api/test_gadgets', { name: 'Bellows', loc_id: site, weight: 3 });
    expect((await api('POST', '/api/test_gadgets', { name: 'Anvil', loc_id: site })).body.fields).toEqual({ name: 'already_exist' });
    expect((await api('POST', '/api/test_gadgets', { name: 'Cog', loc_id: site, weight: -1 })).body.fields).toEqual({ weight: 'min' });
    expect((await api('POST', '/api/test_gadgets', { name: 'Cog', loc_id: 999999 })).body.fields).toEqual({ loc_id: 'invalid' });

    const sorted = await api('GET', '/api/test_gadgets?page=0&size=20&sort_by=weight&order=asc');
    expect(sorted.body.dataset.content.map((g: any) => g.name)).toEqual(['Bellows', 'Anvil']);
    const filtered = await api('GET', '/api/test_gadgets?name=bell');
    expect(filtered.body.dataset.content.map((g: any) => g.name)).toEqual(['Bellows']);
    expect((await api('GET', '/api/test_gadgets?colour=red')).status).toBe(400);

    const edited = await api('PUT', `/api/test_gadgets/${a.body.data.id}`, { weight: 41, enable_flag: 0 });
    expect(edited.body.data).toMatchObject({ weight: 41, enable_flag: 0 });
    expect((await api('GET', `/api/test_gadgets/${a.body.data.id}`)).body).toMatchObject({ name: 'Anvil', weight: 41, loc_id: site });

    expect((await api('GET', `/api/test_gadgets/checkDelete/${b.body.data.id}`)).status).toBe(200);
    expect((await api('DELETE', `/api/test_gadgets/${b.body.data.id}`)).body).toBe('Deleted');
    expect((await api('GET', `/api/test_gadgets/${b.body.data.id}`)).status).toBe(404);
    const audit = await s.db.query(`SELECT action FROM portal_action_log WHERE target = 'test_gadgets' ORDER BY id`);
    expect(audit.map((r) => r.action)).toEqual(['CREATE', 'CREATE', 'UPDATE', 'DELETE']);
  });

  it('is offered as an option list and exported to Excel and PDF', async () => {
    await api('POST', '/api/test_gadgets', { name: 'Dynamo', loc_id: site });
    const options = await api('GET', '/api/options?opts=test_gadgets');
    // Only enabled ones: the source's own filter (Anvil was disabled above).
    expect(options.body.options.test_gadgets.map((o: any) => o.label)).toEqual(['Dynamo']);

    const auth = { headers: { authorization: `Bearer ${token}` } };
    const xlsx = await fetch(`${s.baseUrl}/api/test_gadgets/export/excel?headers=Name&headers=Weight&keys=name&keys=weight&sheet_name=Gadgets&sort_by=name&order=asc`, auth);
    expect(xlsx.status).toBe(200);
    const ExcelJS = (await import('exceljs')).default;
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.from(await xlsx.arrayBuffer()) as any);
    const rows = book.getWorksheet('Gadgets')!.getSheetValues().filter(Boolean).map((r: any) => [r[1], r[2] ?? null]);
    expect(rows).toEqual([['Name', 'Weight'], ['Anvil', 41], ['Dynamo', null]]);
    const [dynamo] = await s.db.query(`SELECT id FROM test_gadgets WHERE name = 'Dynamo'`);
    const pdf = await fetch(`${s.baseUrl}/api/test_gadgets/export/pdf/${dynamo.id}`, auth);
    expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('keeps to its privileges and to the user’s sites like every other resource', async () => {
    const other = (await api('POST', '/api/cp_locs', { address: 'Elsewhere' })).body.data.loc_id;
    await api('POST', '/api/roles', { role: 'gadgeteer', name_chi: 'Gadgeteer', level: 5 });
    const [role] = await s.db.query(`SELECT id FROM roles WHERE role = 'gadgeteer'`);
    await s.db.query(`INSERT INTO role_privileges (role_id, privilege_id) SELECT $1, id FROM privileges WHERE name IN ('READ_TEST_GADGETS', 'CREATE_TEST_GADGETS')`, [role.id]);
    await api('POST', '/api/users', { name: 'G', username: 'gadgeteer', password: 'gadget-pass-1', confirm_password: 'gadget-pass-1', role_id: role.id, cp_loc_flag: 0, loc_id: [site] });
    const g = await s.login('gadgeteer', 'gadget-pass-1');
    const as = (method: string, path: string, body?: unknown) => s.api(method, path, { token: g, body });
    expect((await as('POST', '/api/test_gadgets', { name: 'Elsewhere gadget', loc_id: other })).body.fields).toEqual({ loc_id: 'not_permitted' });
    expect((await as('POST', '/api/test_gadgets', { name: 'Mine', loc_id: site })).status).toBe(200);
    const [mine] = await s.db.query(`SELECT id FROM test_gadgets WHERE name = 'Mine'`);
    expect((await as('PUT', `/api/test_gadgets/${mine.id}`, { weight: 1 })).status).toBe(403);
    await api('POST', '/api/test_gadgets', { name: 'Theirs', loc_id: other });
    const list = await as('GET', '/api/test_gadgets?size=100');
    expect(list.body.dataset.content.every((x: any) => x.loc_id === site)).toBe(true);
  });
});

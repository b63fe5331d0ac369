import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allOptionListGrants, createPrivilege, readPrivilege } from '@ev/core';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { userWith } from '../testing/users.ts';

describe('option lists need a privilege and show only an id and a label', () => {
  let s: TestServer;
  let admin: string;
  let accId: number;
  const options = (token: string, ...keys: string[]) =>
    s.api('GET', `/api/options?${keys.map((k) => `opts=${k}`).join('&')}`, { token });

  beforeAll(async () => {
    s = await startTestServer();
    admin = await s.login();
    const site = (await s.api('POST', '/api/cp_locs', { token: admin, body: { address: 'Option Site' } })).body.data.loc_id;
    await s.api('POST', '/api/cps', { token: admin, body: { cp_no: 'OPT-1', name: 'o', loc_id: site } });
    await s.api('POST', '/api/contact', { token: admin, body: { name: 'Alert Contact', email: 'alert@example.com', status: 1 } });
    const acc = await s.api('POST', '/api/accounts', { token: admin, body: { first_name: 'Tai Man', last_name: 'Chan', mobile_no: '91234567' } });
    expect(acc.status).toBe(200);
    accId = acc.body.data.acc_id;
  });
  afterAll(() => s.close());

  it('refuses every record list to a user who neither reads it nor uses a form or screen picking from it', async () => {
    const nobody = await userWith(s, 'nobody', []);
    for (const [key] of allOptionListGrants()) {
      const res = await options(nobody, key);
      expect(res.status, key).toBe(403);
      expect(JSON.stringify(res.body)).not.toContain('91234567');
    }
    // Fixed lists are code the portal ships: open to every signed-in user.
    expect((await options(nobody, 'connector_status')).status).toBe(200);
    // One forbidden list refuses the whole call.
    expect((await options(nobody, 'connector_status', 'accounts')).status).toBe(403);
  });

  it('grants a list to the forms that pick from it, with the name and id instead of the mobile number', async () => {
    const picker = await userWith(s, 'vehicle-clerk', [createPrivilege('account_vehicles')]);
    const res = await options(picker, 'accounts', 'cps');
    expect(res.status).toBe(200);
    expect(res.body.options.accounts).toEqual([{ label: `Tai Man Chan (#${accId})`, value: accId }]);
    expect(res.body.options.cps.map((o: any) => o.label)).toContain('OPT-1');
    // The vehicle form picks no contact and no site.
    expect((await options(picker, 'contact')).status).toBe(403);
    expect((await options(picker, 'cp_locs')).status).toBe(403);
  });

  it('shows the mobile number to users who may read the accounts themselves', async () => {
    const reader = await userWith(s, 'account-reader', [readPrivilege('accounts')]);
    const res = await options(reader, 'accounts');
    expect(res.body.options.accounts).toEqual([{ label: `Tai Man Chan (91234567)`, value: accId }]);
  });

  it('grants the lists of screens outside the definitions to the privilege opening the screen', async () => {
    const tester = await userWith(s, 'tester', [readPrivilege('test/cp_request')]);
    expect((await options(tester, 'cps')).status).toBe(200);
    expect((await options(tester, 'accounts')).status).toBe(403);
    const lms = await userWith(s, 'lms-viewer', [readPrivilege('lms/dashboard')]);
    expect((await options(lms, 'cp_locs', 'cp_zones')).status).toBe(200);
  });
});

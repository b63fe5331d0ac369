import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RPCClient } from 'ocpp-rpc';
import { startTestServer, type TestServer } from '../../testing/server.ts';
import { addCard, addCharger, addSite, connectCharger } from '../../testing/ocpp-support.ts';

/**
 * OCTT 1.6 (Central System) local authorization list and cache cases, through the portal's routes:
 * the tool plays the charger (a strict ocpp-rpc client, which checks every request of the server
 * against the OCPP 1.6 schemas), answers as each case scripts, and the operator acts in the portal.
 */
describe('OCTT 1.6 local authorization list management', () => {
  let s: TestServer;
  let admin: string;
  let cpId: number;
  let charger: RPCClient;
  const received: { action: string; params: any }[] = [];
  const last = (action: string) => received.filter((r) => r.action === action).at(-1)?.params;
  /** What the tool's charger answers next, per action (set by each case). */
  const answers: Record<string, object> = {};
  const record = (action: string) => (params: any) => {
    received.push({ action, params });
    return answers[action];
  };

  beforeAll(async () => {
    s = await startTestServer();
    admin = await s.login();
    cpId = await addCharger(s.db, 'OCTT-LL', { locId: await addSite(s.db) });
    await addCard(s.db, ['OCTT-TAG1', 'OCTT-TAG2']);
    charger = await connectCharger(s.wsUrl, 'OCTT-LL', {
      handlers: { GetLocalListVersion: record('GetLocalListVersion'), SendLocalList: record('SendLocalList'), ClearCache: record('ClearCache') },
    });
    await charger.call('BootNotification', { chargePointVendor: 'OCTT', chargePointModel: 'Tool' });
  });
  afterAll(async () => {
    await charger.close({ force: true });
    await s.close();
  });

  const api = (method: string, path: string, body?: unknown) => s.api(method, path, { token: admin, body });
  const state = async () => (await api('GET', `/api/cps/${cpId}/localList`)).body;

  describe('TC_042 Get Local List Version', () => {
    it('TC_042_1 Get Local List Version - not supported', async () => {
      answers.GetLocalListVersion = { listVersion: -1 };
      expect((await api('POST', `/api/cps/${cpId}/localList/version`)).body).toMatchObject({ listVersion: -1 });
      expect(last('GetLocalListVersion')).toEqual({});
      expect(await state()).toMatchObject({ reportedVersion: -1, reportedAt: expect.any(String) });
    });

    it('TC_042_2 Get Local List Version - success', async () => {
      answers.GetLocalListVersion = { listVersion: 3 };
      expect((await api('POST', `/api/cps/${cpId}/localList/version`)).body).toMatchObject({ listVersion: 3 });
      expect(await state()).toMatchObject({ reportedVersion: 3 });
    });
  });

  describe('TC_043 Send Local Authorization List', () => {
    it('TC_043_1 Send Local Authorization List - not supported', async () => {
      answers.SendLocalList = { status: 'NotSupported' };
      const res = await api('POST', `/api/cps/${cpId}/localList/send`, { updateType: 'Full' });
      expect(res.body).toMatchObject({ answer: 'NotSupported', updateType: 'Full' });
      expect(await state()).toMatchObject({ expectedVersion: 0, lastAnswer: 'NotSupported' });
    });

    it('TC_043_3 Send Local Authorization List - failed', async () => {
      answers.SendLocalList = { status: 'Failed' };
      expect((await api('POST', `/api/cps/${cpId}/localList/send`, { updateType: 'Full' })).body).toMatchObject({ answer: 'Failed' });
      expect(await state()).toMatchObject({ expectedVersion: 0, lastAnswer: 'Failed' });
    });

    it('TC_043_4 Send Local Authorization List - full', async () => {
      answers.SendLocalList = { status: 'Accepted' };
      const res = await api('POST', `/api/cps/${cpId}/localList/send`, { updateType: 'Full' });
      // Above the version the charger reported (3): a later Differential is not a mismatch.
      expect(res.body).toEqual({ updateType: 'Full', listVersion: 4, answer: 'Accepted', entries: 2 });
      const sent = last('SendLocalList');
      expect(sent).toMatchObject({ listVersion: 4, updateType: 'Full' });
      expect(sent.localAuthorizationList).toEqual(expect.arrayContaining([
        { idTag: 'OCTT-TAG1', idTagInfo: { status: 'Accepted' } },
        { idTag: 'OCTT-TAG2', idTagInfo: { status: 'Accepted' } },
      ]));
      expect(await state()).toMatchObject({ expectedVersion: 4, lastAnswer: 'Accepted', pendingChanges: 0 });
    });

    it('TC_043_5 Send Local Authorization List - differential', async () => {
      await addCard(s.db, ['OCTT-TAG3']);
      answers.SendLocalList = { status: 'Accepted' };
      const res = await api('POST', `/api/cps/${cpId}/localList/send`, { updateType: 'Differential' });
      expect(res.body).toEqual({ updateType: 'Differential', listVersion: 5, answer: 'Accepted', entries: 1 });
      expect(last('SendLocalList')).toEqual({
        listVersion: 5, updateType: 'Differential', localAuthorizationList: [{ idTag: 'OCTT-TAG3', idTagInfo: { status: 'Accepted' } }],
      });
      expect(await state()).toMatchObject({ expectedVersion: 5, lastUpdateType: 'Differential' });
    });
  });

  describe('TC_061 Clear Authorization Data in Authorization Cache', () => {
    it('TC_061 Clear Authorization Data in Authorization Cache', async () => {
      answers.ClearCache = { status: 'Accepted' };
      expect((await api('GET', `/api/cps/clearCache/${cpId}`)).body).toEqual({ status: 'success', data: { status: 'Accepted' } });
      expect(last('ClearCache')).toEqual({});
    });
  });
});

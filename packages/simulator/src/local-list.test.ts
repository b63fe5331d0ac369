import { expect, it } from 'vitest';
import { Configuration } from './configuration.ts';
import { LocalAuthList } from './local-list.ts';

const list = () => {
  const config = new Configuration({ connectors: 1, heartbeatIntervalSec: 60, meterIntervalSec: 60 });
  return { config, list: new LocalAuthList(config) };
};

it('replaces on Full, changes by idTag on Differential, refuses a Differential not above its version', () => {
  const { list: l } = list();
  expect(l.listVersion()).toBe(0);
  expect(l.update({ listVersion: 3, updateType: 'Full', localAuthorizationList: [{ idTag: 'A', idTagInfo: { status: 'Accepted' } }, { idTag: 'B', idTagInfo: { status: 'Accepted' } }] })).toBe('Accepted');
  expect(l.listVersion()).toBe(3);
  expect(l.update({ listVersion: 3, updateType: 'Differential', localAuthorizationList: [{ idTag: 'A' }] })).toBe('VersionMismatch');
  expect(l.update({ listVersion: 4, updateType: 'Differential', localAuthorizationList: [{ idTag: 'a' }, { idTag: 'B', idTagInfo: { status: 'Blocked' } }, { idTag: 'C', idTagInfo: { status: 'Accepted' } }] })).toBe('Accepted');
  expect([l.lookup('A'), l.lookup('b')?.status, l.lookup('C')?.status, l.size]).toEqual([undefined, 'Blocked', 'Accepted', 2]);
  expect(l.update({ listVersion: 1, updateType: 'Full', localAuthorizationList: [] })).toBe('Accepted');
  expect([l.size, l.listVersion()]).toEqual([0, 0]);
});

it('answers NotSupported and version -1 when LocalAuthListEnabled is false, Failed when told to or too long, Expired past expiryDate', () => {
  const { config, list: l } = list();
  l.failWith = 'Failed';
  expect(l.update({ listVersion: 1, updateType: 'Full', localAuthorizationList: [] })).toBe('Failed');
  l.failWith = undefined;
  const many = Array.from({ length: 1001 }, (_, i) => ({ idTag: `T${i}`, idTagInfo: { status: 'Accepted' as const } }));
  expect(l.update({ listVersion: 1, updateType: 'Full', localAuthorizationList: many })).toBe('Failed');
  expect(l.update({ listVersion: 1, updateType: 'Full', localAuthorizationList: [{ idTag: 'OLD', idTagInfo: { status: 'Accepted', expiryDate: '2020-01-01T00:00:00Z' } }] })).toBe('Accepted');
  expect(l.lookup('OLD')?.status).toBe('Expired');
  expect(config.change('LocalAuthListEnabled', 'false')).toBe('Accepted');
  expect(l.update({ listVersion: 2, updateType: 'Full', localAuthorizationList: [] })).toBe('NotSupported');
  expect([l.listVersion(), l.lookup('OLD')]).toEqual([-1, undefined]);
});

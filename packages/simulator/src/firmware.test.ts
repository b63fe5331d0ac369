import { describe, expect, it } from 'vitest';
import { FirmwareUpdater, versionOf, type FirmwareHost, type FirmwareStatus } from './firmware.ts';

/** A charger stand-in that records what the update reports and does. */
function host(version = '1.0.0') {
  const events: string[] = [];
  const h: FirmwareHost & { version: string } = {
    version,
    firmwareVersion: () => h.version,
    report: async (s: FirmwareStatus) => void events.push(s),
    sleep: async (ms) => void (ms > 100 && events.push(`wait ${Math.round(ms / 1000)}s`)),
    now: () => Date.parse('2026-01-01T00:00:00Z'),
    restartWith: async (v) => {
      h.version = v;
      events.push(`boot ${v}`);
    },
  };
  return { h, events };
}
const request = { location: 'https://fw.example.com/path/evsim-2.1.0.bin?token=1', retrieveDate: '2026-01-01T00:00:30Z' };

describe('simulated firmware update', () => {
  it('reads the new version from the map, else from the file name', () => {
    expect(versionOf(request.location)).toBe('2.1.0');
    expect(versionOf('ftp://fw/image.bin')).toBe('image');
    expect(versionOf('ftp://fw/image.bin', { 'image.bin': 'X-7' })).toBe('X-7');
  });

  it('waits for the retrieve date, then downloads, installs, restarts with the new version and says Installed', async () => {
    const { h, events } = host();
    await new FirmwareUpdater(h, { stepMs: 1 }).run(request);
    expect(events).toEqual(['wait 30s', 'Downloading', 'Downloaded', 'Installing', 'boot 2.1.0', 'Installed']);
  });

  it('fails the download, the installation, or boots with the old version, as told', async () => {
    for (const [fail, expected] of [
      ['download', ['Downloading', 'DownloadFailed']],
      ['install', ['Downloading', 'Downloaded', 'Installing', 'InstallationFailed']],
      ['version', ['Downloading', 'Downloaded', 'Installing', 'boot 1.0.0', 'Installed']],
    ] as const) {
      const { h, events } = host();
      const updater = new FirmwareUpdater(h, { stepMs: 1, fail });
      await updater.run({ ...request, retrieveDate: '2025-12-31T00:00:00Z' });
      expect(events).toEqual(expected);
      expect(updater.status).toBe(expected.at(-1)!.startsWith('boot') ? 'Installed' : expected.at(-1));
    }
  });
});

/**
 * A firmware update as a charger does it (OCPP 1.6 §5.19 UpdateFirmware, §4.5 FirmwareStatusNotification):
 * the command is answered {} at once; at retrieveDate the charger reports Downloading, Downloaded,
 * Installing, then restarts (BootNotification with the new firmwareVersion) and reports Installed, the
 * order of OCTT TC_044_1. A charger told to fail reports DownloadFailed or InstallationFailed instead.
 *
 * The new version is the `versions` map's entry for the URL (or its file name), else read from the file
 * name: the last dotted number in it (…/evsim-2.1.0.bin → 2.1.0), else the name without its extension.
 */

export type FirmwareStatus = 'Idle' | 'Downloading' | 'Downloaded' | 'DownloadFailed' | 'Installing' | 'Installed' | 'InstallationFailed';

export interface FirmwareOptions {
  /** Pause between two statuses (default 2000 ms; tests make it short). */
  stepMs?: number;
  /** download / install: that step fails; version: it installs but boots with its old version. */
  fail?: 'download' | 'install' | 'version';
  /** URL or file name → the version the image installs. */
  versions?: Record<string, string>;
}

export interface UpdateFirmwareRequest {
  location: string;
  retrieveDate: string;
  retries?: number;
  retryInterval?: number;
}

/** What the update needs of the charger. */
export interface FirmwareHost {
  firmwareVersion(): string;
  report(status: FirmwareStatus): Promise<void>;
  sleep(ms: number): Promise<void>;
  now(): number;
  /** Restarts the charger running this version (it boots with it). */
  restartWith(version: string): Promise<void>;
}

/** The version an image installs: from the map, else from its file name. */
export function versionOf(location: string, versions: Record<string, string> = {}): string {
  const file = location.split(/[?#]/)[0].split('/').pop() ?? '';
  const mapped = versions[location] ?? versions[file];
  if (mapped) return mapped;
  const numbers = file.match(/\d+(?:\.\d+)+/g);
  return numbers?.at(-1) ?? (file.replace(/\.[^.]*$/, '') || location);
}

export class FirmwareUpdater {
  status: FirmwareStatus = 'Idle';

  constructor(private readonly host: FirmwareHost, public options: FirmwareOptions = {}) {}

  private async go(status: FirmwareStatus): Promise<void> {
    this.status = status;
    await this.host.report(status);
  }

  /** Runs one update to its end (the command's answer is already out). */
  async run({ location, retrieveDate }: UpdateFirmwareRequest): Promise<void> {
    const step = this.options.stepMs ?? 2000;
    const wait = new Date(retrieveDate).getTime() - this.host.now();
    if (wait > 0) await this.host.sleep(wait);
    await this.go('Downloading');
    await this.host.sleep(step);
    if (this.options.fail === 'download') return this.go('DownloadFailed');
    await this.go('Downloaded');
    await this.host.sleep(step);
    await this.go('Installing');
    await this.host.sleep(step);
    if (this.options.fail === 'install') return this.go('InstallationFailed');
    await this.host.restartWith(this.options.fail === 'version' ? this.host.firmwareVersion() : versionOf(location, this.options.versions));
    await this.go('Installed');
  }
}

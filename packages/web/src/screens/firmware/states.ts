import type { FirmwareJobState } from '@ev/core';

/** How each job state is coloured: green done well, red failed, blue on the way, grey not sent. */
export const STATE_COLOURS: Record<FirmwareJobState, string> = {
  Queued: 'default', Sent: 'processing', Downloading: 'processing', Downloaded: 'processing', Installing: 'processing',
  Installed: 'cyan', Verified: 'green', DownloadFailed: 'red', InstallationFailed: 'red', Mismatch: 'red', NotSent: 'orange', Stopped: 'default',
};

export const JOB_COLOURS: Record<string, string> = { Running: 'processing', Finished: 'green', Stopped: 'orange' };

/** A stored time as the portal shows it. */
export const shownTime = (v: string | null | undefined) => (v ? new Date(v).toLocaleString('sv-SE').slice(0, 19) : '-');

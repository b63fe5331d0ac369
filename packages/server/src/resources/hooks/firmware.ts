import { FIRMWARE_URL_PATTERN } from '@ev/core';
import { badRequest } from '../../http/errors.ts';
import type { ResourceHooks } from './types.ts';

/** Firmware images (issue 29): chargers download from an http, https or ftp URL (OCPP 1.6 UpdateFirmware.location). */
export const hooks: ResourceHooks = {
  async beforeWrite(_ctx, data) {
    const cols = { ...data };
    if (typeof cols.url === 'string') {
      const url = cols.url.trim();
      cols.url = url;
      if (!FIRMWARE_URL_PATTERN.test(url)) throw badRequest('url: invalid (http, https or ftp)', { url: 'invalid' });
    }
    return cols;
  },
};

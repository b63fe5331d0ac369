import { badRequest } from '../../http/errors.ts';
import { validOpeningTimes } from '../../opening-hours/schedule.ts';
import type { ResourceHooks } from './types.ts';

/**
 * Opening hours: HH:mm times whose end differs from the start (an earlier end runs overnight),
 * checked against the stored value of the one not sent on an edit.
 */
export const hooks: ResourceHooks = {
  async beforeWrite(ctx, data) {
    const start = data.start_time ?? ctx.old?.start_time;
    const end = data.end_time ?? ctx.old?.end_time;
    const fields = validOpeningTimes(start, end);
    if (Object.keys(fields).length) throw badRequest(Object.entries(fields).map(([k, v]) => `${k}: ${v}`), fields);
    return { ...data };
  },
};

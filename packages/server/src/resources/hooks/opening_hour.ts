import { badRequest } from '../../http/errors.ts';
import { validOpeningTimes } from '../../opening-hours/schedule.ts';
import type { ResourceHooks } from './types.ts';

/**
 * Opening hours: HH:mm times whose end is after the start, or before it when the operator chose
 * ends_next_day; checked against the stored value of what an edit does not send.
 */
export const hooks: ResourceHooks = {
  async beforeWrite(ctx, data) {
    const start = data.start_time ?? ctx.old?.start_time;
    const end = data.end_time ?? ctx.old?.end_time;
    const fields = validOpeningTimes(start, end, Number(data.ends_next_day ?? ctx.old?.ends_next_day) === 1);
    if (Object.keys(fields).length) throw badRequest(Object.entries(fields).map(([k, v]) => `${k}: ${v}`), fields);
    return { ...data };
  },
};

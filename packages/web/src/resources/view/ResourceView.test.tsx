import { describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { getResource } from '@ev/core';
import { ApiError } from '../../api/client.ts';
import { renderScreen } from '../../testing/render.tsx';
import { ResourceView } from './ResourceView.tsx';

/** A client whose cached charger answered once and then failed its refresh (a live view read every 5 s). */
function failedRefresh(error: Error): QueryClient {
  const client = new QueryClient();
  client.setQueryData(['record', 'cps', '7'], { cp_id: 7, cp_no: 'SIM007', online_flag: 1 });
  const query = client.getQueryCache().find({ queryKey: ['record', 'cps', '7'] })!;
  query.setState({ status: 'error', error, fetchStatus: 'idle' });
  return client;
}

describe('a record view whose refresh fails', () => {
  it('keeps the record and its tabs on the screen and says it is as last read, in both languages', async () => {
    const cps = getResource('cps')!;
    const en = await renderScreen('en', <ResourceView def={cps} id="7" />, undefined, failedRefresh(new ApiError(502, null)));
    expect(en).toContain('SIM007');
    expect(en).toContain('role="tab"');
    expect(en).toMatch(/Shown as read at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d: the latest refresh failed/);
    const zh = await renderScreen('zh-TW', <ResourceView def={cps} id="7" />, undefined, failedRefresh(new ApiError(502, null)));
    expect(zh).toMatch(/顯示的是 \d{4}-\d\d-\d\d \d\d:\d\d:\d\d 讀取的資料：最近一次更新失敗/);
  });

  it('shows the error alone when there was never a record', async () => {
    // Not asked again on mount: the failure is what the screen has.
    const client = new QueryClient({ defaultOptions: { queries: { retryOnMount: false } } });
    client.getQueryCache().build(client, { queryKey: ['record', 'cps', '8'] }).setState({ status: 'error', error: new ApiError(404, null), fetchStatus: 'idle' });
    const html = await renderScreen('en', <ResourceView def={getResource('cps')!} id="8" />, undefined, client);
    expect(html).not.toContain('role="tab"');
    expect(html).not.toContain('Shown as read at');
    expect(html).toContain('ant-result-404');
  });
});

import { describe, expect, it } from 'vitest';
import i18next from 'i18next';
import { buildCatalogs, EXPORT_ROW_LIMIT, getResource } from '@ev/core';
import { readBlob } from '../../api/client.ts';
import { renderScreen } from '../../testing/render.tsx';
import { capNotice, ExportExcelButton, received } from './ExportExcelButton.tsx';

async function translator(lang: 'en' | 'zh-TW') {
  const i18n = i18next.createInstance();
  await i18n.init({ resources: buildCatalogs(), lng: lang, fallbackLng: 'en', interpolation: { escapeValue: false }, showSupportNotice: false });
  return i18n.t;
}

describe('a very large Excel export (issue 30)', () => {
  it('warns before the file starts only when the list is larger than the cap, in the reader\'s language', async () => {
    const en = await translator('en');
    expect(capNotice(undefined, en, 'en')).toBeUndefined();
    expect(capNotice(EXPORT_ROW_LIMIT, en, 'en')).toBeUndefined();
    expect(capNotice(2_345_678, en, 'en')).toEqual({
      title: 'Export the first 1,000,000 rows?',
      content: 'This list has about 2,345,678 rows; the Excel file will hold the first 1,000,000. Narrow the filters to export the rest.',
    });
    expect(capNotice(11, en, 'en', 10)?.content).toContain('about 11 rows; the Excel file will hold the first 10.');
    const zh = await translator('zh-TW');
    expect(capNotice(EXPORT_ROW_LIMIT + 1, zh, 'zh-TW')?.content).toBe('此清單約有 1,000,001 筆資料，Excel 檔只會包含前 1,000,000 筆。請縮小篩選範圍以匯出其餘資料。');
  });

  it('tells the bytes received as the file arrives, and keeps them all', async () => {
    const chunks = [new Uint8Array(3).fill(1), new Uint8Array(5).fill(2)];
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        for (const chunk of chunks) c.enqueue(chunk);
        c.close();
      },
    });
    const seen: number[] = [];
    const blob = await readBlob(new Response(body, { headers: { 'content-type': 'application/vnd.ms-excel' } }), (n) => seen.push(n));
    expect(seen).toEqual([3, 8]);
    expect(blob.type).toBe('application/vnd.ms-excel');
    expect([...new Uint8Array(await blob.arrayBuffer())]).toEqual([1, 1, 1, 2, 2, 2, 2, 2]);
    expect(received(12.34 * 1048576)).toBe('12.3 MB');
  });

  it('is the list\'s Export Excel button', async () => {
    const html = await renderScreen('zh-TW', <ExportExcelButton def={getResource('cp_requests')!} query={{}} columns={[]} total={5} />);
    expect(html).toContain('匯出 Excel');
  });
});

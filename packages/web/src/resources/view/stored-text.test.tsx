import { describe, expect, it } from 'vitest';
import { getResource, storedText } from '@ev/core';
import { renderScreen as render } from '../../testing/render.tsx';
import { RecordDescriptions } from './RecordDetails.tsx';

/** The text of a rendered page without its tags. */
const text = (html: string) => html.replace(/<[^>]+>/g, '|');

describe('values shown in the reader\'s language', () => {
  it('a stored text in each language, a plain-text row as it is', async () => {
    const userLog = getResource('user_log')!;
    const record = { user_log_id: 1, type: 'LOGIN_FAILED', msg: storedText('msg.log.user.loginWrongPassword') };
    expect(text(await render('zh-TW', <RecordDescriptions def={userLog} record={record} />))).toContain('|登入失敗：密碼錯誤|');
    expect(text(await render('en', <RecordDescriptions def={userLog} record={record} />))).toContain('|Login failed: wrong password|');
    const errorLog = getResource('third_party_error_log')!;
    const refused = { id: 1, action: 'remote_start', reason: storedText('msg.log.external.notAllowed', { privilege: 'EXT_ALL', action: 'get_lp' }) };
    expect(text(await render('zh-TW', <RecordDescriptions def={errorLog} record={refused} />))).toContain('|權限 EXT_ALL 不允許 get_lp|');
    expect(text(await render('zh-TW', <RecordDescriptions def={userLog} record={{ user_log_id: 2, msg: 'Login' }} />))).toContain('|Login|');
  });

  it('a site\'s address in the reader\'s language, English where it has no Chinese one; all sites in words', async () => {
    const voucher = getResource('voucher')!;
    const both = JSON.stringify({ en: 'Harbour Car Park', 'zh-TW': '海港停車場' });
    expect(text(await render('zh-TW', <RecordDescriptions def={voucher} record={{ id: 1, address: both }} />))).toContain('|海港停車場|');
    expect(text(await render('en', <RecordDescriptions def={voucher} record={{ id: 1, address: both }} />))).toContain('|Harbour Car Park|');
    const englishOnly = JSON.stringify({ en: 'Harbour Car Park', 'zh-TW': null });
    expect(text(await render('zh-TW', <RecordDescriptions def={voucher} record={{ id: 1, address: englishOnly }} />))).toContain('|Harbour Car Park|');
    const rsr = getResource('cp_rsr')!;
    expect(text(await render('zh-TW', <RecordDescriptions def={rsr} record={{ id: 1, loc_address: both }} />))).toContain('|海港停車場|');
    expect(text(await render('zh-TW', <RecordDescriptions def={voucher} record={{ id: 1, address: storedText('msg.log.allSites') }} />))).toContain('|所有充電站|');
  });

  it('an audited edit as the fields that changed, labelled as in the resource, secrets never shown', async () => {
    const log = getResource('portal_action_log')!;
    const changes = {
      target: 'cp_locs',
      old: { loc_id: 3, address: 'Harbour Car Park', address_chi: '海港停車場', enable_flag: 1, password: 'x' },
      new: { loc_id: 3, address: 'Harbour Car Park B1', address_chi: '海港停車場', enable_flag: 0, password: 'y' },
    };
    const zh = text(await render('zh-TW', <RecordDescriptions def={log} record={{ id: 1, action: 'UPDATE', changes }} />));
    for (const cell of ['|欄位|', '|修改前|', '|修改後|', '|地址|', '|Harbour Car Park|', '|Harbour Car Park B1|', '|是|', '|否|']) expect(zh).toContain(cell);
    for (const unchanged of ['海港停車場', 'password', '&quot;address&quot;']) expect(zh).not.toContain(unchanged);
    const en = text(await render('en', <RecordDescriptions def={log} record={{ id: 1, action: 'UPDATE', changes }} />));
    for (const cell of ['|Field|', '|Before|', '|After|', '|Address|']) expect(en).toContain(cell);
  });

  it('the Charger ID of a message or session is the charger\'s id, not its number again', async () => {
    for (const key of ['cp_requests', 'cp_sessions', 'cp_sessions_all']) {
      const html = await render('en', <RecordDescriptions def={getResource(key)!} record={{ cp_id: 7, cp_no: 'SIM001' }} />);
      expect(html, key).toContain('href="/cps/7"');
      expect(text(html).match(/\|SIM001\|/g), key).toHaveLength(1);
    }
  });
});

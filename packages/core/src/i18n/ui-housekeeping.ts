import type { Catalog, Lang } from './types.ts';

/** Texts of the settings pages data_rotation_setup and app_config (namespace ui.housekeeping.*, merged into UI). */
export const HOUSEKEEPING_UI: Record<Lang, Catalog> = {
  en: {
    housekeeping: {
      runNow: 'Run now',
      confirmRun: 'Delete now every enabled item\'s data older than its retention period?',
      confirmRunHint: 'The job deletes in small batches and does not hold up the chargers; it also runs every night at 03:00.',
      started: 'The data rotation has started; refresh the list to see what it deleted.',
      alreadyRunning: 'A data rotation is already running.',
      valueTab: 'Value',
      value: 'Value',
      save: 'Save',
      adminOnly: 'Only users allowed to change Admin settings can change this entry.',
      noEditRight: 'You may not change settings.',
    },
  },
  'zh-TW': {
    housekeeping: {
      runNow: '立即執行',
      confirmRun: '立即刪除每個已啟用項目中超過保留期的數據？',
      confirmRunHint: '此作業分小批刪除，不會阻礙充電樁；它亦會於每晚 03:00 自動執行。',
      started: '數據輪替已開始；重新整理列表可查看刪除筆數。',
      alreadyRunning: '數據輪替正在執行中。',
      valueTab: '設定值',
      value: '設定值',
      save: '儲存',
      adminOnly: '只有獲准更改管理員設定的用戶才能更改此項目。',
      noEditRight: '您無權更改設定。',
    },
  },
};

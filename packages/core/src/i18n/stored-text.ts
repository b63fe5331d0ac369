import type { Catalog, Lang } from './types.ts';

/**
 * A text the server writes for people to read later (a log's message, a refusal's reason, an import's
 * error): stored as a catalog key with parameters, so each reader sees it in their own language.
 * It is kept as JSON in the existing text column; rows written before as plain text still show as they are.
 * List columns holding one are displayed 'message'.
 */
export interface StoredText {
  /** A full catalog key: msg.log.* (below) or any other (msg.error.<code>). */
  key: string;
  params?: Record<string, string | number>;
}

/**
 * Or a name people wrote in both languages (a site's address), as a list's SQL builds it
 * (jsonb_build_object('en', …, 'zh-TW', …)::text): shown in the reader's language, English where the other is blank.
 */
export interface BilingualText {
  en: string | null;
  'zh-TW': string | null;
}

export function storedText(key: string, params?: StoredText['params']): string {
  return JSON.stringify(params ? { key, params } : { key });
}

export function parseStoredText(value: unknown): StoredText | null {
  if (typeof value !== 'string' || !value.startsWith('{"key":')) return null;
  try {
    const parsed = JSON.parse(value) as StoredText;
    return typeof parsed.key === 'string' ? parsed : null;
  } catch {
    return null;
  }
}

export type Translate = (key: string, params: Record<string, string | number>) => string;

function parseBilingual(value: unknown): BilingualText | null {
  if (typeof value !== 'string' || !value.startsWith('{"en":')) return null;
  try {
    return JSON.parse(value) as BilingualText;
  } catch {
    return null;
  }
}

/** The text in the reader's language through `t` (i18next's, or catalogTranslate's); plain text as it is. */
export function storedTextIn(value: unknown, t: Translate, lang: Lang): string {
  const both = parseBilingual(value);
  if (both) return (lang === 'zh-TW' && both['zh-TW']?.trim() ? both['zh-TW'] : both.en) ?? '';
  const parsed = parseStoredText(value);
  if (!parsed) return value === null || value === undefined ? '' : String(value);
  return t(parsed.key, parsed.params ?? {});
}

/** A translate function over one language's catalog (exports on the server): {{name}} filled in, the key itself when missing. */
export function catalogTranslate(catalog: Catalog, fallback: Catalog): Translate {
  const find = (root: Catalog, key: string) => {
    let node: string | Catalog | undefined = root;
    for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
    return typeof node === 'string' ? node : undefined;
  };
  return (key, params) =>
    (find(catalog, key) ?? find(fallback, key) ?? key).replace(/\{\{\s*(\w+)\s*\}\}/g, (m, name: string) => (name in params ? String(params[name]) : m));
}

/** Texts of msg.log.*: what the server records for people (user log, third-party error log, realtime log, tester, voucher imports). */
export const LOG_TEXTS: Record<Lang, Catalog> = {
  en: {
    allSites: 'All sites',
    user: {
      login: 'Signed in',
      logout: 'Signed out',
      loginUnknownUser: 'Login failed: unknown user',
      loginInactive: 'Login failed: user inactive',
      loginWrongPassword: 'Login failed: wrong password',
    },
    external: {
      missingCredentials: 'Missing or invalid X-App-Id / X-Api-Key',
      noSecret: 'The app has no secret (removed)',
      wrongKey: 'Unknown app or wrong API key',
      notAllowed: 'Privilege {{privilege}} does not allow {{action}}',
      badInput: 'Invalid input: {{errors}}',
      refused: 'Refused (HTTP {{status}}): {{message}}',
      // Parking refusals (parking/events.ts), with what the parking system sent.
      unknown_bay: 'No bay {{bayId}}',
      car_not_in: 'No car of session {{sessionId}} is in bay {{bayId}}',
    },
    // Why an uploaded workbook (voucher import) cannot be read.
    importFile: {
      empty: 'No file, or an empty one',
      notXlsx: 'The file is not an Excel workbook (.xlsx)',
      encryptedOrXls: 'The file is encrypted or an old .xls workbook: save it as .xlsx without a password',
      encrypted: 'The file is encrypted: save it without a password',
      damaged: 'The file is damaged (a part of the workbook does not unpack)',
      notZip: 'The file is damaged (not a complete zip package)',
      badDirectory: 'The file is damaged (bad zip directory)',
      unpacksTooLarge: 'The workbook unpacks to more than {{mb}} MB',
      tooLarge: 'The file is larger than {{mb}} MB',
      oneFile: 'Only one file per import',
      unreadable: 'The workbook could not be read (it seems damaged)',
      unreadableDetail: 'The workbook could not be read: {{detail}}',
      tooManyRows: 'More than {{max}} rows: split the file',
      noHeader: 'The first worksheet is empty: the header row {{columns}} is missing',
      missingColumns: 'The header row must name the columns {{columns}}; missing: {{missing}}',
      noSheet: 'The workbook has no worksheet',
      noRows: 'The workbook has no voucher rows',
    },
    // The realtime log of load management (one key per entry kind); what: a profile's purpose, limit and #transaction.
    lms: {
      online: 'Charger connected',
      offline: 'Charger disconnected',
      released: 'No longer load-managed: limits cleared',
      queued: 'Queued at position {{position}}',
      queue_started: 'Left the queue: charging at {{current}} A',
      profile_accepted: 'SetChargingProfile {{what}}: Accepted',
      profile_failed: 'SetChargingProfile {{what}}: {{reason}}; counted at its maximum until it accepts a limit',
    },
    // The message tester's payload against the OCPP schema of the charger's version; path is the JSON pointer of the value.
    schema: {
      required: '{{path}}: the required field {{name}} is missing',
      unknown: '{{path}}: unknown field {{name}}',
      enum: '{{path}}: must be one of {{values}}',
      type: '{{path}}: must be of type {{type}}',
      maxLength: '{{path}}: longer than {{limit}} characters',
      range: '{{path}}: must be {{comparison}} {{limit}}',
      format: '{{path}}: not a valid {{format}}',
      invalid: '{{path}}: invalid value',
      otherVersion: '{{action}} is not a message of this charger: it speaks OCPP {{version}}',
    },
  },
  'zh-TW': {
    allSites: '所有充電站',
    user: {
      login: '已登入',
      logout: '已登出',
      loginUnknownUser: '登入失敗：用戶不存在',
      loginInactive: '登入失敗：用戶已停用',
      loginWrongPassword: '登入失敗：密碼錯誤',
    },
    external: {
      missingCredentials: '缺少或無效的 X-App-Id / X-Api-Key',
      noSecret: '此應用程式沒有密鑰（已移除）',
      wrongKey: '未知的應用程式或 API 密鑰錯誤',
      notAllowed: '權限 {{privilege}} 不允許 {{action}}',
      badInput: '輸入無效：{{errors}}',
      refused: '已拒絕（HTTP {{status}}）：{{message}}',
      unknown_bay: '沒有車位 {{bayId}}',
      car_not_in: '停車記錄 {{sessionId}} 的車輛不在車位 {{bayId}}',
    },
    importFile: {
      empty: '沒有檔案，或檔案是空的',
      notXlsx: '檔案不是 Excel 活頁簿（.xlsx）',
      encryptedOrXls: '檔案已加密或為舊版 .xls 活頁簿：請另存為沒有密碼的 .xlsx',
      encrypted: '檔案已加密：請另存為沒有密碼的檔案',
      damaged: '檔案已損壞（活頁簿的部分內容無法解壓）',
      notZip: '檔案已損壞（不是完整的 zip 檔案）',
      badDirectory: '檔案已損壞（zip 目錄錯誤）',
      unpacksTooLarge: '活頁簿解壓後超過 {{mb}} MB',
      tooLarge: '檔案大於 {{mb}} MB',
      oneFile: '每次匯入只可上載一個檔案',
      unreadable: '無法讀取活頁簿（檔案似乎已損壞）',
      unreadableDetail: '無法讀取活頁簿：{{detail}}',
      tooManyRows: '超過 {{max}} 行：請分拆檔案',
      noHeader: '第一個工作表是空的：缺少標題行 {{columns}}',
      missingColumns: '標題行必須包含欄位 {{columns}}；缺少：{{missing}}',
      noSheet: '活頁簿沒有工作表',
      noRows: '活頁簿沒有電子禮券資料行',
    },
    lms: {
      online: '充電樁已連線',
      offline: '充電樁已斷線',
      released: '不再受負載管理：已清除限制',
      queued: '排隊中，位置 {{position}}',
      queue_started: '離開排隊：以 {{current}} A 充電',
      profile_accepted: 'SetChargingProfile {{what}}：已接受',
      profile_failed: 'SetChargingProfile {{what}}：{{reason}}；在接受限制前按其最大電流計算',
    },
    schema: {
      required: '{{path}}：缺少必填欄位 {{name}}',
      unknown: '{{path}}：未知欄位 {{name}}',
      enum: '{{path}}：必須是以下其中之一：{{values}}',
      type: '{{path}}：類型必須是 {{type}}',
      maxLength: '{{path}}：超過 {{limit}} 個字元',
      range: '{{path}}：必須 {{comparison}} {{limit}}',
      format: '{{path}}：不是有效的 {{format}}',
      invalid: '{{path}}：數值無效',
      otherVersion: '{{action}} 不是此充電樁的訊息：它使用 OCPP {{version}}',
    },
  },
};

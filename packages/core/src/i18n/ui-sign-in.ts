import type { Catalog, Lang } from './types.ts';

/**
 * The texts the sign-in page and the portal's last-resort error screen need, apart from the rest so
 * that the sign-in page loads them alone (sign-in.ts); merged into UI like every other part.
 */
export const SIGN_IN_UI: Record<Lang, Catalog> = {
  en: {
    app: { title: 'EV Charging Back-office', shortTitle: 'EV Back-office' },
    languages: { en: 'English', 'zh-TW': '繁體中文' },
    login: { subtitle: 'Staff sign-in', username: 'Username', password: 'Password', submit: 'Sign in', language: 'Language' },
    error: { backHome: 'Back to home', toLogin: 'Back to sign-in', reload: 'Reload the page', noPermission: 'You do not have permission to open this page.' },
  },
  'zh-TW': {
    app: { title: '電動車充電管理平台', shortTitle: '充電管理平台' },
    languages: { en: 'English', 'zh-TW': '繁體中文' },
    login: { subtitle: '職員登入', username: '用戶名稱', password: '密碼', submit: '登入', language: '語言' },
    error: { backHome: '返回首頁', toLogin: '返回登入', reload: '重新載入頁面', noPermission: '你沒有權限開啟此頁面。' },
  },
};

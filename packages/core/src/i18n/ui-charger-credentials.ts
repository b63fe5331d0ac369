import type { Catalog, Lang } from './types.ts';

/**
 * A charger's HTTP Basic password (OCPP security profile 1), as the texts below state it: 16 to 40
 * printable characters without spaces (the OCPP security whitepaper's AuthorizationKey is at least 16
 * bytes; OCPP 2.0.1 passwordString at most 40). The server checks it (charger-credentials/), the portal
 * says it before sending.
 */
export const CHARGER_PASSWORD_LENGTH = { min: 16, max: 40 } as const;

/**
 * The charger view's "Charger password" section (issue 29, namespace ui.chargerPassword): set or generate
 * the password a charger signs in with, sent to it as ChangeConfiguration AuthorizationKey. The charger's
 * answers (Accepted, Rejected, NotSupported …) are shown in OCPP's words.
 */
export const CHARGER_CREDENTIALS_UI: Record<Lang, Catalog> = {
  en: {
    chargerPassword: {
      title: 'Charger password',
      intro: 'The password this charger signs in with (HTTP Basic, OCPP security profile 1). It is sent to the charger as its AuthorizationKey; the server keeps only a hash of it.',
      none: 'No password: the charger signs in without one.',
      setSince: 'Password set since {{at}}',
      setUnknown: 'Password set',
      rotating: 'The charger has the new password; its old sign-in is still accepted until it reconnects with the new one.',
      set: 'Set password',
      generate: 'Generate password',
      setTitle: 'Set the charger password',
      passwordLabel: 'New password',
      rule: '{{min}} to {{max}} characters: letters, digits and symbols, no spaces.',
      confirmTitle: 'Send a new password to the charger?',
      confirmBody: 'The charger is sent the new password (ChangeConfiguration AuthorizationKey) and stays connected. Its old password keeps working until it reconnects with the new one.',
      send: 'Send to the charger',
      generatedTitle: 'New charger password',
      generatedNote: 'Shown this once: copy it now if you need it (for example to configure the charger by hand). It cannot be shown again.',
      copy: 'Copy',
      copied: 'Copied',
      accepted: 'The charger accepted the new password.',
      rebootRequired: 'The charger accepted the new password and uses it after a reboot.',
      refused: 'The charger answered {{answer}}: it keeps its old password, which stays accepted.',
      noAnswer: 'The charger did not answer in time: the old and the new password are both accepted until it signs in with the new one. Try again to be sure.',
      tooShort: 'At least {{min}} characters',
      tooLong: 'At most {{max}} characters',
      badCharacters: 'Letters, digits and symbols only, no spaces',
    },
  },
  'zh-TW': {
    chargerPassword: {
      title: '充電樁密碼',
      intro: '此充電樁登入時使用的密碼（HTTP Basic，OCPP 安全設定檔 1）。密碼以 AuthorizationKey 傳送給充電樁；伺服器只保存其雜湊值。',
      none: '未設定密碼：充電樁登入時不需密碼。',
      setSince: '密碼設定於 {{at}}',
      setUnknown: '已設定密碼',
      rotating: '充電樁已收到新密碼；在它以新密碼重新連線之前，舊密碼仍可登入。',
      set: '設定密碼',
      generate: '產生密碼',
      setTitle: '設定充電樁密碼',
      passwordLabel: '新密碼',
      rule: '{{min}} 至 {{max}} 個字元：英文字母、數字與符號，不可有空格。',
      confirmTitle: '要將新密碼傳送給充電樁嗎？',
      confirmBody: '新密碼將傳送給充電樁（ChangeConfiguration AuthorizationKey），充電樁保持連線。在它以新密碼重新連線之前，舊密碼仍然有效。',
      send: '傳送給充電樁',
      generatedTitle: '新的充電樁密碼',
      generatedNote: '僅顯示這一次：如有需要請立即複製（例如要在充電樁上手動設定）。之後無法再次顯示。',
      copy: '複製',
      copied: '已複製',
      accepted: '充電樁已接受新密碼。',
      rebootRequired: '充電樁已接受新密碼，將於重新開機後使用。',
      refused: '充電樁回覆 {{answer}}：它保留舊密碼，舊密碼仍可登入。',
      noAnswer: '充電樁未及時回覆：在它以新密碼登入之前，新舊密碼皆可登入。請再試一次以確認。',
      tooShort: '至少 {{min}} 個字元',
      tooLong: '最多 {{max}} 個字元',
      badCharacters: '僅限英文字母、數字與符號，不可有空格',
    },
  },
};

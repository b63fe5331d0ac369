import { useState, type FormEvent } from 'react';
import type { TFunction } from 'i18next';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LANGS, type LoginResponse } from '@ev/core';
import { ApiError, api } from '../api/client.ts';
import { errorText } from '../api/errors.ts';
import { getToken, setToken } from '../api/token.ts';
import { currentLanguage, setLanguage } from '../app/i18n.ts';
import './LoginPage.css';

/**
 * The sign-in page, in plain markup and its own small style sheet: it is the first thing every user
 * loads, often over a poor link, so it needs neither antd nor the portal's other texts (issue 30).
 */
export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  // The refusal as a text of the current language: switching language rewords it.
  const [error, setError] = useState<(t: TFunction) => string>();
  const [missing, setMissing] = useState<{ username?: boolean; password?: boolean }>({});
  const [busy, setBusy] = useState(false);
  if (getToken()) return <Navigate to="/" replace />;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const username = String(form.get('username') ?? '').trim();
    const password = String(form.get('password') ?? '');
    setMissing({ username: !username, password: !password });
    if (!username || !password) return;
    setBusy(true);
    setError(undefined);
    try {
      const { token } = await api.post<LoginResponse>('/login', { username, password });
      setToken(token);
      const from = (location.state as { from?: string } | null)?.from;
      void navigate(from && from !== '/login' ? from : '/', { replace: true });
    } catch (err) {
      setError(() => (tr: TFunction) => (err instanceof ApiError && err.status === 400 ? tr('msg.loginFailed') : errorText(err, tr)));
      // Only on failure: a render after success would meet the new token and send the user home instead of back.
      setBusy(false);
    }
  };

  const field = (name: 'username' | 'password', type: string, autoComplete: string) => (
    <div className="ev-login-field">
      <label htmlFor={`login-${name}`}>{t(`ui.login.${name}`)}</label>
      <input
        id={`login-${name}`}
        name={name}
        type={type}
        autoComplete={autoComplete}
        autoFocus={name === 'username'}
        aria-invalid={missing[name] || undefined}
        aria-describedby={missing[name] ? `login-${name}-missing` : undefined}
        onInput={() => missing[name] && setMissing({ ...missing, [name]: false })}
      />
      {missing[name] && (
        <div id={`login-${name}-missing`} className="ev-login-missing">
          {t('msg.form.required')}
        </div>
      )}
    </div>
  );

  return (
    <main className="ev-login">
      <div className="ev-login-card">
        <header>
          <svg viewBox="0 0 24 24" width="36" height="36" aria-hidden="true">
            <path fill="#0f7b6c" d="M13 2 4 14h7l-1 8 9-12h-7z" />
          </svg>
          <h1>{t('ui.app.title')}</h1>
          <p>{t('ui.login.subtitle')}</p>
        </header>
        {error && (
          <div className="ev-login-error" role="alert" data-testid="login-error">
            {error(t)}
          </div>
        )}
        <form onSubmit={(e) => void submit(e)} noValidate>
          {field('username', 'text', 'username')}
          {field('password', 'password', 'current-password')}
          <button type="submit" className="ev-button ev-login-submit" disabled={busy} aria-busy={busy}>
            {t('ui.login.submit')}
          </button>
        </form>
        <div className="ev-login-languages" role="group" aria-label={t('ui.login.language')}>
          {LANGS.map((lang) => (
            <button key={lang} type="button" aria-pressed={currentLanguage() === lang} onClick={() => setLanguage(lang)}>
              {t(`ui.languages.${lang}`)}
            </button>
          ))}
        </div>
      </div>
    </main>
  );
}

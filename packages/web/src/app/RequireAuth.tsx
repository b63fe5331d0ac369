import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Button, Result, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorText } from '../api/errors.ts';
import { getToken } from '../api/token.ts';
import { meQuery } from '../api/me.ts';
import { MeContext } from './session.tsx';

/** Navigation guard: no stored token → /login; otherwise load the user's privileges before anything renders. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const location = useLocation();
  const token = getToken();
  const me = useQuery({ ...meQuery, enabled: !!token });
  if (!token) return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />;
  if (me.isPending) return <Spin size="large" fullscreen />;
  if (me.isError)
    return (
      <Result
        status="error"
        title={errorText(me.error, t)}
        extra={<Button onClick={() => void me.refetch()}>{t('ui.common.retry')}</Button>}
      />
    );
  return <MeContext.Provider value={me.data}>{children}</MeContext.Provider>;
}

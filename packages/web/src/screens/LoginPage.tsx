import { useState } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { Alert, Button, Card, Form, Input, Segmented, Typography } from 'antd';
import { LockOutlined, ThunderboltFilled, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { LANGS, type Lang, type LoginResponse } from '@ev/core';
import { ApiError, api } from '../api/client.ts';
import { errorText } from '../api/errors.ts';
import { getToken, setToken } from '../api/token.ts';
import { currentLanguage, setLanguage } from '../app/i18n.ts';

interface Credentials {
  username: string;
  password: string;
}

export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  if (getToken()) return <Navigate to="/" replace />;

  const submit = async (values: Credentials) => {
    setBusy(true);
    setError(undefined);
    try {
      const { token } = await api.post<LoginResponse>('/login', values);
      setToken(token);
      const from = (location.state as { from?: string } | null)?.from;
      void navigate(from && from !== '/login' ? from : '/', { replace: true });
    } catch (err) {
      setError(err instanceof ApiError && err.status === 400 ? t('msg.loginFailed') : errorText(err, t));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div
      style={{
        minHeight: '100vh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        background: 'linear-gradient(135deg, #0b3d36 0%, #0f7b6c 60%, #3fd0b8 100%)',
        padding: 16,
      }}
    >
      <Card style={{ width: 380, boxShadow: '0 12px 32px rgba(0,0,0,.25)' }}>
        <div style={{ textAlign: 'center', marginBottom: 24 }}>
          <ThunderboltFilled style={{ fontSize: 36, color: '#0f7b6c' }} />
          <Typography.Title level={3} style={{ margin: '8px 0 0' }}>
            {t('ui.app.title')}
          </Typography.Title>
          <Typography.Text type="secondary">{t('ui.login.subtitle')}</Typography.Text>
        </div>
        {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} data-testid="login-error" />}
        <Form<Credentials> layout="vertical" onFinish={submit} requiredMark={false}>
          <Form.Item name="username" label={t('ui.login.username')} rules={[{ required: true, message: t('msg.form.required') }]}>
            <Input prefix={<UserOutlined />} autoComplete="username" autoFocus />
          </Form.Item>
          <Form.Item name="password" label={t('ui.login.password')} rules={[{ required: true, message: t('msg.form.required') }]}>
            <Input.Password prefix={<LockOutlined />} autoComplete="current-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={busy}>
            {t('ui.login.submit')}
          </Button>
        </Form>
        <div style={{ textAlign: 'center', marginTop: 16 }}>
          <Segmented<Lang>
            size="small"
            value={currentLanguage()}
            options={LANGS.map((l) => ({ value: l, label: t(`ui.languages.${l}`) }))}
            onChange={setLanguage}
          />
        </div>
      </Card>
    </div>
  );
}

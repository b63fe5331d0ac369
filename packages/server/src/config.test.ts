import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';
import { DEFAULT_DATABASE_OPTIONS } from './db/client.ts';

describe('settings from the environment', () => {
  it('takes the defaults when a setting is unset or blank, and the value when it is one', () => {
    const blank = loadConfig({ PORT: '', DATABASE_POOL_SIZE: '  ' });
    expect(blank.port).toBe(8080);
    expect(blank.database).toEqual(DEFAULT_DATABASE_OPTIONS);
    const set = loadConfig({ PORT: '9000', DATABASE_POOL_SIZE: '25', TOKEN_TTL_HOURS: '0.5', ALERT_OFFLINE_GRACE_SECONDS: '90', OCPP_GARBAGE_READ_PAUSE_MS: '0', OCPP_PING_INTERVAL_MS: '15000' });
    expect(set.port).toBe(9000);
    expect(set.database.poolSize).toBe(25);
    expect(set.tokenTtlHours).toBe(0.5);
    expect(set.alertOfflineGraceMs).toBe(90_000);
    expect(set.ocppGarbageReadPauseMs).toBe(0);
    expect(set.ocppPingIntervalMs).toBe(15_000);
    expect(blank.ocppPingIntervalMs).toBe(30_000);
  });

  it('refuses a setting that is not a number in its range, naming it', () => {
    const refused = (env: NodeJS.ProcessEnv) => {
      try {
        loadConfig(env);
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        return (err as Error).message;
      }
      throw new Error(`accepted ${JSON.stringify(env)}`);
    };
    expect(refused({ PORT: '80o' })).toBe('PORT=80o is not a whole number from 0 to 65535');
    expect(refused({ PORT: '70000' })).toContain('PORT=70000');
    expect(refused({ DATABASE_POOL_SIZE: '0' })).toBe('DATABASE_POOL_SIZE=0 is not a whole number of at least 1');
    expect(refused({ DATABASE_STATEMENT_TIMEOUT_MS: '5s' })).toContain('DATABASE_STATEMENT_TIMEOUT_MS=5s');
    expect(refused({ BODY_LIMIT: '1.5' })).toContain('BODY_LIMIT=1.5');
    expect(refused({ TOKEN_TTL_HOURS: '-1' })).toBe('TOKEN_TTL_HOURS=-1 is not a number from 0.01 to 8784');
    expect(refused({ OCPP_PING_INTERVAL_MS: '30s' })).toBe('OCPP_PING_INTERVAL_MS=30s is not a whole number from 0 to 3600000');
    expect(refused({ OCPP_GARBAGE_CLOSES_PER_ADDRESS: 'off' })).toContain('OCPP_GARBAGE_CLOSES_PER_ADDRESS=off');
    expect(refused({ PAYMENT_GATEWAY_URL: 'https://pay.example/charge', PAYMENT_GATEWAY_TIMEOUT_MS: 'NaN' })).toContain('PAYMENT_GATEWAY_TIMEOUT_MS=NaN');
  });

  it('the server does not start on a mistyped setting: one line naming it, exit code 1', () => {
    const main = fileURLToPath(new URL('./main.ts', import.meta.url));
    const run = spawnSync(process.execPath, ['--import', 'tsx', main], {
      env: { ...process.env, PORT: '80o', DATABASE_URL: 'memory://' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr.trim()).toBe('Not started: PORT=80o is not a whole number from 0 to 65535');
    expect(run.stdout).not.toContain('Portal:');
  });
});

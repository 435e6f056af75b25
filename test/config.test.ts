import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';

describe('configuration from the environment', () => {
  it('has DESIGN section 3 defaults', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.host).toBe('127.0.0.1');
    expect(config.publicApiBaseUrl).toBe('http://localhost:8080/v1');
    expect(config.publicAppBaseUrl).toBe('http://localhost:8080');
    expect(loadConfig({ PORT: '9000' }).publicApiBaseUrl).toBe('http://localhost:9000/v1');
    expect(config.serviceEnv).toBe('production');
    expect(config.recordingsStore).toBe('disk');
    expect([config.rateLimitPerKey, config.rateLimitPerIp]).toEqual([120, 30]);
    expect([config.worker, config.scorer, config.sqliteSynchronous]).toEqual(['inline', 'rules', 'normal']);
    expect([config.skipMinRepTurns, config.skipMinRepWords]).toEqual([3, 40]);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.logLevel).toBe('info');
    expect(loadConfig({ DATABASE_URL: 'postgresql://u@h/db' }).databaseUrl).toBe('postgresql://u@h/db');
    expect(loadConfig({ REDIS_URL: 'rediss://u:p@cache.example:6380/2' }).redisUrl).toBe(
      'rediss://u:p@cache.example:6380/2',
    );
    expect(config.redisUrl).toBeUndefined();
    expect(config.trustProxy).toBeUndefined();
  });

  it('reads TRUST_PROXY as unset, true, a hop count or a list of proxies', () => {
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBeUndefined();
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    const list = '10.0.0.1, 192.168.0.0/16, 10.0.0.0/255.0.0.0, ::1, fd00::/8, loopback';
    expect(loadConfig({ TRUST_PROXY: list }).trustProxy).toBe(list);
  });

  it('keeps a base URL without its trailing slash', () => {
    const config = loadConfig({
      PUBLIC_API_BASE_URL: 'https://api.example.com/v1/',
      PUBLIC_APP_BASE_URL: 'https://app.example.com/',
    });
    expect(config.publicApiBaseUrl).toBe('https://api.example.com/v1');
    expect(config.publicAppBaseUrl).toBe('https://app.example.com');
  });

  it.each([
    [{ PORT: '70000' }, 'PORT must be an integer from 0 to 65535, got "70000"'],
    [{ PORT: 'abc' }, 'PORT must be an integer'],
    [{ PUBLIC_API_BASE_URL: 'api.example.com/v1' }, 'PUBLIC_API_BASE_URL must be an absolute http(s) URL'],
    [{ PUBLIC_API_BASE_URL: 'ftp://example.com/v1' }, 'PUBLIC_API_BASE_URL must be an absolute http(s) URL'],
    [{ PUBLIC_API_BASE_URL: 'https://gw.example.com/callscore' }, 'PUBLIC_API_BASE_URL must end in /v1'],
    [
      { PUBLIC_APP_BASE_URL: 'https://app.example.com/?x=1' },
      'PUBLIC_APP_BASE_URL must be an absolute http(s) URL',
    ],
    [{ WORKER: 'no' }, 'WORKER must be one of inline, off'],
    [{ DEMO: 'maybe' }, 'DEMO must be true or false'],
    [{ DATABASE_URL: 'mysql://db/x' }, 'DATABASE_URL must start with postgres:// (got "mysql:…")'],
    [{ REDIS_URL: 'notaurl' }, 'REDIS_URL must be a redis:// or rediss:// URL with a host, got "notaurl"'],
    [{ REDIS_URL: 'http://cache:6379' }, 'REDIS_URL must be a redis:// or rediss:// URL'],
    [{ REDIS_URL: 'redis://' }, 'REDIS_URL must be a redis:// or rediss:// URL'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent'],
    [{ TRUST_PROXY: 'garbage' }, 'TRUST_PROXY must be true, false, a hop count'],
    [{ TRUST_PROXY: '10.0.0.0/33' }, 'TRUST_PROXY must be true, false, a hop count'],
  ])('refuses %o at start with a message naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});

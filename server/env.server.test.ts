import { describe, expect, it } from 'vitest';
import { parseEnv } from './env.server.ts';

describe('parseEnv (docs/operations.md, Environment)', () => {
  it('gives the documented defaults when nothing is set', () => {
    const env = parseEnv({});
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.GTAG_ID).toBeUndefined();
    expect(env.ADS_CONVERSION_SEND_TO).toBeUndefined();
    expect(env).toMatchObject({
      PORT: 3000,
      HOST: '0.0.0.0',
      SITE_URL: 'http://localhost:3000',
      DATA_DIR: './data',
      LEAD_WEBHOOK_URLS: [],
      LEAD_ACCEPT: 'stored',
      LEAD_RATE_LIMIT: 10,
      LEAD_RETENTION_DAYS: 730,
      URGENT_ESCALATE_MINUTES: 10,
    });
    expect(env.LEAD_WEBHOOK_SECRET).toBeUndefined();
  });

  it('takes https:// webhooks anywhere and plain http:// only on loopback', () => {
    const urls = [
      'https://hooks.example.com/a',
      'http://127.0.0.1:8080/hook',
      'http://localhost:5678/webhook/x',
      'http://[::1]:9000/h',
    ];
    expect(parseEnv({ LEAD_WEBHOOK_URLS: urls.join(',') }).LEAD_WEBHOOK_URLS).toEqual(urls);
  });

  it('names the variable and the position, never the address, of a plain http:// webhook', () => {
    const attempt = () =>
      parseEnv({
        LEAD_WEBHOOK_URLS: 'https://ok.example/a,http://hooks.example.com/s3cr3t-token',
      });
    expect(attempt).toThrow(/LEAD_WEBHOOK_URLS: address 2 must use https:\/\//);
    expect(attempt).not.toThrow(/s3cr3t/);
  });

  it('reads the lead e-mail settings: STARTTLS required for smtp:// beyond this machine', () => {
    const env = parseEnv({
      LEAD_EMAIL_TO: 'Office@Glass.example.nz, owner@glass.example.nz',
      SMTP_URL: 'smtp://leads%40glass.example.nz:p%40ss:w0rd@mail.example.nz:587',
      LEAD_EMAIL_FROM: 'website@glass.example.nz',
    });
    expect(env.LEAD_EMAIL_TO).toEqual(['office@glass.example.nz', 'owner@glass.example.nz']);
    expect(env.LEAD_EMAIL_FROM).toBe('website@glass.example.nz');
    expect(env.SMTP_URL).toEqual({
      host: 'mail.example.nz',
      port: 587,
      secure: false,
      requireTLS: true,
      user: 'leads@glass.example.nz',
      pass: 'p@ss:w0rd',
    });
    expect(parseEnv({ SMTP_URL: 'smtps://u:p@mail.example.nz' }).SMTP_URL).toEqual(
      expect.objectContaining({ port: 465, secure: true, requireTLS: false }),
    );
    expect(parseEnv({ SMTP_URL: 'smtp://127.0.0.1:2525' }).SMTP_URL).toEqual(
      expect.objectContaining({ port: 2525, secure: false, requireTLS: false }),
    );
  });

  it('takes a mailto: address or an https: URL as VAPID_SUBJECT, unset by default', () => {
    expect(parseEnv({}).VAPID_SUBJECT).toBeUndefined();
    expect(parseEnv({ VAPID_SUBJECT: ' mailto:office@glass.example.nz ' }).VAPID_SUBJECT).toBe(
      'mailto:office@glass.example.nz',
    );
    expect(parseEnv({ VAPID_SUBJECT: 'https://glass.example.nz/' }).VAPID_SUBJECT).toBe(
      'https://glass.example.nz/',
    );
    // Apple refuses every push signed with another kind of subject.
    for (const subject of [
      'office@glass.example.nz',
      'mailto:',
      'mailto:not an address',
      'http://glass.example.nz',
      'https://',
      'glass.example.nz',
    ]) {
      expect(() => parseEnv({ VAPID_SUBJECT: subject }), subject).toThrow(
        /VAPID_SUBJECT: must be a mailto: address or an https:\/\/ address/,
      );
    }
  });

  it('never repeats SMTP_URL (it holds the password) in a message', () => {
    const attempt = () =>
      parseEnv({ SMTP_URL: 'smtp://user:hunter2@mail.example.nz?ignoreTLS=true' });
    expect(attempt).toThrow(/SMTP_URL/);
    expect(attempt).not.toThrow(/hunter2/);
  });

  it('takes a Standard Webhooks secret and the retention in days', () => {
    const secret = `whsec_${Buffer.from('x'.repeat(32)).toString('base64')}`;
    const env = parseEnv({ LEAD_WEBHOOK_SECRET: secret, LEAD_RETENTION_DAYS: '365' });
    expect(env.LEAD_WEBHOOK_SECRET).toBe(secret);
    expect(env.LEAD_RETENTION_DAYS).toBe(365);
    expect(parseEnv({ URGENT_ESCALATE_MINUTES: '3' }).URGENT_ESCALATE_MINUTES).toBe(3);
    expect(parseEnv({}).FOLLOW_UP_QUOTED_DAYS).toBe(3);
    expect(parseEnv({ FOLLOW_UP_QUOTED_DAYS: ' 5 ' }).FOLLOW_UP_QUOTED_DAYS).toBe(5);
  });

  it('names the won jobs for Google Ads by ADS_CONVERSION_NAME, "Won job" unless set', () => {
    expect(parseEnv({}).ADS_CONVERSION_NAME).toBe('Won job');
    expect(parseEnv({ ADS_CONVERSION_NAME: '  ' }).ADS_CONVERSION_NAME).toBe('Won job');
    expect(parseEnv({ ADS_CONVERSION_NAME: ' Job won – paid ' }).ADS_CONVERSION_NAME).toBe(
      'Job won – paid',
    );
  });

  it('defaults LEAD_ACCEPT to delivered when a target is configured; webhook is its old name', () => {
    const env = parseEnv({ LEAD_WEBHOOK_URLS: ' https://a.example/hook , https://b.example/x ' });
    expect(env.LEAD_WEBHOOK_URLS).toEqual(['https://a.example/hook', 'https://b.example/x']);
    expect(env.LEAD_ACCEPT).toBe('delivered');
    expect(
      parseEnv({ LEAD_WEBHOOK_URLS: 'https://a.example/hook', LEAD_ACCEPT: 'webhook' }).LEAD_ACCEPT,
    ).toBe('delivered');
    const email = {
      LEAD_EMAIL_TO: 'office@glass.example.nz',
      SMTP_URL: 'smtps://u:p@mail.example.nz',
    };
    expect(parseEnv(email).LEAD_ACCEPT).toBe('delivered');
    expect(
      parseEnv({ LEAD_WEBHOOK_URLS: 'https://a.example/hook', LEAD_ACCEPT: 'stored' }).LEAD_ACCEPT,
    ).toBe('stored');
  });

  it('drops a trailing slash from SITE_URL and treats empty values as unset', () => {
    expect(parseEnv({ SITE_URL: 'https://glass.example.nz/' }).SITE_URL).toBe(
      'https://glass.example.nz',
    );
    expect(parseEnv({ DATABASE_URL: '', GTAG_ID: '' })).toMatchObject({
      DATABASE_URL: undefined,
      GTAG_ID: undefined,
    });
  });

  it("reads TRUST_PROXY in the forms of Express's trust proxy, default loopback", () => {
    expect(parseEnv({}).TRUST_PROXY).toEqual(['loopback']);
    expect(parseEnv({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(parseEnv({ TRUST_PROXY: ' 2 ' }).TRUST_PROXY).toBe(2);
    expect(parseEnv({ TRUST_PROXY: '0' }).TRUST_PROXY).toBe(0);
    expect(
      parseEnv({ TRUST_PROXY: 'loopback, 10.0.0.0/8, fd00::/8, 203.0.113.7' }).TRUST_PROXY,
    ).toEqual(['loopback', '10.0.0.0/8', 'fd00::/8', '203.0.113.7']);
    expect(parseEnv({ TRUST_PROXY: 'uniquelocal' }).TRUST_PROXY).toEqual(['uniquelocal']);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ TRUST_PROXY: 'true' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: 'yes' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.0/33' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: 'loopback,300.1.1.1' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '-1' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: ' , ' }, 'TRUST_PROXY'],
    [{ PORT: '70000' }, 'PORT'],
    [{ SITE_URL: 'glass.example.nz' }, 'SITE_URL'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ LEAD_WEBHOOK_URLS: 'https://ok.example,not a url' }, 'LEAD_WEBHOOK_URLS'],
    [{ LEAD_ACCEPT: 'sometimes' }, 'LEAD_ACCEPT'],
    [{ LEAD_ACCEPT: 'webhook' }, 'LEAD_ACCEPT'],
    [{ LEAD_ACCEPT: 'delivered' }, 'LEAD_ACCEPT'],
    [{ LEAD_EMAIL_TO: 'office@glass.example.nz' }, 'SMTP_URL'],
    [{ LEAD_EMAIL_TO: 'not an address', SMTP_URL: 'smtps://mail.example.nz' }, 'LEAD_EMAIL_TO'],
    [{ LEAD_EMAIL_FROM: 'nobody' }, 'LEAD_EMAIL_FROM'],
    [{ SMTP_URL: 'https://mail.example.nz' }, 'SMTP_URL'],
    [{ SMTP_URL: 'smtp://u:p@mail.example.nz:587?ignoreTLS=true' }, 'SMTP_URL'],
    [{ SMTP_URL: 'smtp://u:p@mail.example.nz:587?requireTLS=false' }, 'SMTP_URL'],
    [{ LEAD_RATE_LIMIT: '0' }, 'LEAD_RATE_LIMIT'],
    [{ GTAG_ID: 'my-tag' }, 'GTAG_ID'],
    [{ ADS_CONVERSION_SEND_TO: 'AW-123' }, 'ADS_CONVERSION_SEND_TO'],
    [{ LEAD_WEBHOOK_URLS: 'http://hooks.example.com/x' }, 'LEAD_WEBHOOK_URLS'],
    [{ LEAD_WEBHOOK_URLS: 'ftp://hooks.example.com/x' }, 'LEAD_WEBHOOK_URLS'],
    [{ LEAD_WEBHOOK_SECRET: 'hunter2' }, 'LEAD_WEBHOOK_SECRET'],
    [
      { LEAD_WEBHOOK_SECRET: `whsec_${Buffer.from('short').toString('base64')}` },
      'LEAD_WEBHOOK_SECRET',
    ],
    [{ LEAD_RETENTION_DAYS: '0' }, 'LEAD_RETENTION_DAYS'],
    [{ LEAD_RETENTION_DAYS: 'two years' }, 'LEAD_RETENTION_DAYS'],
    [{ URGENT_ESCALATE_MINUTES: '0' }, 'URGENT_ESCALATE_MINUTES'],
    [{ URGENT_ESCALATE_MINUTES: 'ten' }, 'URGENT_ESCALATE_MINUTES'],
    [{ URGENT_ESCALATE_MINUTES: '2.5' }, 'URGENT_ESCALATE_MINUTES'],
    [{ FOLLOW_UP_QUOTED_DAYS: '0' }, 'FOLLOW_UP_QUOTED_DAYS'],
    [{ FOLLOW_UP_QUOTED_DAYS: '-3' }, 'FOLLOW_UP_QUOTED_DAYS'],
    [{ FOLLOW_UP_QUOTED_DAYS: '2.5' }, 'FOLLOW_UP_QUOTED_DAYS'],
    [{ FOLLOW_UP_QUOTED_DAYS: 'three' }, 'FOLLOW_UP_QUOTED_DAYS'],
    [{ FOLLOW_UP_QUOTED_DAYS: '' }, 'FOLLOW_UP_QUOTED_DAYS'],
    [{ ADS_CONVERSION_NAME: 'x'.repeat(101) }, 'ADS_CONVERSION_NAME'],
    [{ ADS_CONVERSION_NAME: 'Won\njob' }, 'ADS_CONVERSION_NAME'],
  ])('rejects %o with a message naming %s', (source, variable) => {
    expect(() => parseEnv(source)).toThrow(new RegExp(`Invalid environment:[\\s\\S]*${variable}:`));
  });

  it('says what FOLLOW_UP_QUOTED_DAYS must be', () => {
    expect(() => parseEnv({ FOLLOW_UP_QUOTED_DAYS: '2.5' })).toThrow(
      'FOLLOW_UP_QUOTED_DAYS: must be a whole number of days, from 1 to 365',
    );
  });
});

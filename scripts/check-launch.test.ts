import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { placeholderBusiness } from '../app/content/business.ts';
import {
  defaultSiteContent,
  type SiteContent,
  type SiteOffer,
  type SiteTestimonial,
} from '../app/content/site-content.ts';
import { openSqliteStore } from '../app/db/store-sqlite.server.ts';
import {
  checkLaunch,
  runLaunchCheck,
  SETTINGS_CHECKS,
  type LaunchContent,
  type LaunchFinding,
} from './check-launch.ts';

const root = path.resolve(import.meta.dirname, '..');
const run = promisify(execFile);

/** 15 March 2026 in New Zealand. */
const TODAY = new Date('2026-03-15T00:00:00Z');

const shippedIdentity = defaultSiteContent.identity;

/** A business that has replaced every placeholder. */
const realIdentity: SiteContent['identity'] = {
  ...shippedIdentity,
  name: 'Kōwhai Glass',
  legalName: 'Kōwhai Glass Limited',
  phone: { display: '07 578 2468', e164: '+6475782468' },
  email: 'kiaora@kowhaiglass.co.nz',
  address: { ...shippedIdentity.address, street: '18 Taurikura Drive' },
  geo: { latitude: -37.7512, longitude: 176.1003 },
  social: {
    facebook: 'https://www.facebook.com/kowhaiglass',
    instagram: 'https://www.instagram.com/kowhaiglass/',
  },
  mapEmbedUrl: 'https://www.google.com/maps?q=18+Taurikura+Drive,+Tauriko&output=embed',
  mapLinkUrl: 'https://www.google.com/maps/search/?api=1&query=18+Taurikura+Drive%2C+Tauriko',
  privacyOfficer: {
    role: 'Privacy Officer',
    name: 'Ana Kōwhai',
    email: 'privacy@kowhaiglass.co.nz',
  },
};

const realOffer: SiteOffer = {
  id: 1,
  title: 'Autumn Double Glazing',
  discount: '$150 off',
  validUntil: '2026-05-31',
  terms: 'Orders over $2,000.',
  ctaText: 'Get a Quote',
  ctaLink: '/quote',
};

const realTestimonial: SiteTestimonial = {
  id: 1,
  name: 'Tama R.',
  role: 'Homeowner',
  location: 'Bethlehem',
  rating: 5,
  review: 'Quick, tidy and exactly the price they quoted.',
  permission: true,
};

const confirmedFacts = Object.fromEntries(
  Object.entries(defaultSiteContent.hours.facts).map(([key, fact]) => [
    key,
    { ...fact, confirmed: true },
  ]),
) as SiteContent['hours']['facts'];

/** Content with nothing left to replace. */
const readyContent: SiteContent = {
  ...defaultSiteContent,
  identity: realIdentity,
  hours: { ...defaultSiteContent.hours, facts: confirmedFacts },
  offers: [realOffer],
  testimonials: [realTestimonial],
};

const ready: LaunchContent = { content: readyContent, version: 0, illustrations: [] };

/** The settings of a site started for real. */
const production = {
  SITE_URL: 'https://www.kowhaiglass.co.nz',
  LEAD_WEBHOOK_URLS: 'https://hooks.kowhaiglass.co.nz/leads',
  LEAD_EMAIL_TO: 'office@kowhaiglass.co.nz',
  SMTP_URL: 'smtps://website%40kowhaiglass.co.nz:app-password@smtp.mailhost.example:465',
  GTAG_ID: 'G-KOWHAI01',
  BACKUP_URL: 'file:///mnt/backup-disk/glass-site',
};

function problems(
  content: Partial<SiteContent> = {},
  environment: Record<string, string | undefined> = production,
): LaunchFinding[] {
  return checkLaunch({ ...ready, content: { ...readyContent, ...content } }, environment, TODAY);
}

describe('the launch check', () => {
  it('passes content and settings with nothing left to replace (exit 0)', () => {
    expect(problems()).toEqual([]);
    expect(runLaunchCheck(ready, production, TODAY)).toEqual({
      report: 'Ready to launch.',
      exitCode: 0,
    });
  });

  describe('the business identity in app/content/business.ts', () => {
    it('reports every part still at its shipped placeholder, one line each', () => {
      const found = problems({ identity: shippedIdentity });
      expect(found.every((finding) => finding.file === 'app/content/business.ts')).toBe(true);
      expect(found.every((finding) => finding.level === 'error')).toBe(true);
      expect(found.map((finding) => /\((\w+)/.exec(finding.message)?.[1])).toEqual([
        'name',
        'legalName',
        'phone',
        'email',
        'address',
        'map',
        'social',
        'social',
        'privacyOfficer',
      ]);
    });

    it('takes a value equal to the placeholder as a placeholder, one field at a time', () => {
      const one = (change: Partial<SiteContent['identity']>) =>
        problems({ identity: { ...realIdentity, ...change } }).map((finding) => finding.message);
      expect(one({ phone: { ...placeholderBusiness.phone } })).toEqual([
        'the phone number (phone) is still the placeholder “07 555 0123”: put the business’s own here',
      ]);
      expect(one({ geo: { ...placeholderBusiness.geo } })).toEqual([
        expect.stringMatching(/^the map \(map\) still shows/),
      ]);
      expect(
        one({ privacyOfficer: { ...realIdentity.privacyOfficer, email: 'privacy@example.com' } }),
      ).toEqual([expect.stringMatching(/^the Privacy Officer’s e-mail/)]);
    });

    it('also catches an example domain, an example street or a social link to no page', () => {
      const found = problems({
        identity: {
          ...realIdentity,
          email: 'office@glass.example',
          address: { ...realIdentity.address, street: '1 Example Street' },
          social: { ...realIdentity.social, instagram: 'https://www.instagram.com' },
        },
      });
      expect(found.map((finding) => /\(([\w.]+)\)/.exec(finding.message)?.[1])).toEqual([
        'email',
        'address',
        'social.instagram',
      ]);
    });
  });

  describe('offers and testimonials', () => {
    it('reports an offer whose end date has passed, by today’s date in New Zealand', () => {
      const ended = { ...realOffer, validUntil: '2026-03-14' };
      expect(problems({ offers: [ended] })).toEqual([
        {
          level: 'error',
          file: 'app/content/offers.ts',
          message:
            'offer 1 “Autumn Double Glazing” ended on 14 March 2026 (validUntil 2026-03-14): give it a new end date or remove it',
        },
      ]);
      // Still running on its last day.
      expect(problems({ offers: [{ ...realOffer, validUntil: '2026-03-15' }] })).toEqual([]);
    });

    it('reports sample offers and testimonials and says why: the Fair Trading Act 1986', () => {
      const found = problems({
        offers: [{ ...realOffer, sample: true }],
        testimonials: [{ ...realTestimonial, sample: true }],
      });
      expect(found.map((finding) => finding.file)).toEqual([
        'app/content/offers.ts',
        'app/content/testimonials.ts',
      ]);
      expect(found[0]?.message).toMatch(/^offer 1 “Autumn Double Glazing” is sample content/);
      expect(found[1]?.message).toMatch(
        /invented sample review.*publishing invented reviews as real ones is misleading under the Fair Trading Act 1986/,
      );
    });
  });

  it('reports a fact the owner has not confirmed in app/content/facts.ts', () => {
    const found = problems({
      hours: {
        ...readyContent.hours,
        facts: { ...confirmedFacts, quoteValidity: { days: 30, confirmed: false } },
      },
    });
    expect(found).toEqual([
      {
        level: 'error',
        file: 'app/content/facts.ts',
        message:
          'quoteValidity is stated on the site but not yet confirmed by the business: How long a written quote stays valid. Correct it, then set confirmed: true',
      },
    ]);
  });

  it('names the published version, edited at /admin/site, instead of a file', () => {
    const found = checkLaunch(
      { ...ready, version: 3, content: { ...readyContent, identity: shippedIdentity } },
      production,
      TODAY,
    );
    expect(found.length).toBeGreaterThan(0);
    expect(new Set(found.map((finding) => finding.file))).toEqual(
      new Set(['the site content, version 3 (edit it at /admin/site)']),
    );
  });

  describe('the production settings', () => {
    const messages = (environment: Record<string, string | undefined>) =>
      checkLaunch(ready, environment, TODAY, '/etc/glazier.env').map(
        (finding) => `${finding.level} ${finding.file}: ${finding.message.split(':')[0]}`,
      );

    it('SITE_URL left at localhost is an error', () => {
      for (const siteUrl of [undefined, 'http://localhost:3000', 'http://127.0.0.1:8080']) {
        const found = checkLaunch(ready, { ...production, SITE_URL: siteUrl }, TODAY);
        expect(found).toEqual([
          {
            level: 'error',
            file: 'the server’s environment',
            message: expect.stringMatching(
              /^SITE_URL is http:\/\/(?:localhost|127\.0\.0\.1):\d+: set it/,
            ),
          },
        ]);
      }
    });

    it('no delivery target is an error, a database or not: leads would stay on the server', () => {
      const nowhere = {
        ...production,
        LEAD_WEBHOOK_URLS: undefined,
        LEAD_EMAIL_TO: undefined,
        SMTP_URL: undefined,
      };
      for (const environment of [
        nowhere,
        { ...nowhere, DATABASE_URL: 'postgres://db.internal/glass' },
      ]) {
        const found = checkLaunch(ready, environment, TODAY, '/etc/glazier.env');
        expect(found).toEqual([
          expect.objectContaining({
            level: 'error',
            message: expect.stringContaining('leads would only be kept on this server'),
          }),
        ]);
        expect(runLaunchCheck(ready, environment, TODAY).exitCode).toBe(1);
      }
    });

    it('one delivery target is a warning; an e-mail and a webhook are enough', () => {
      expect(messages({ ...production, LEAD_WEBHOOK_URLS: undefined })).toEqual([
        'warning /etc/glazier.env: only one delivery target is set (the e-mail)',
      ]);
      expect(messages({ ...production, LEAD_EMAIL_TO: undefined, SMTP_URL: undefined })).toEqual([
        'warning /etc/glazier.env: only one delivery target is set (one webhook)',
      ]);
      expect(messages(production)).toEqual([]);
    });

    it('no backup is a warning with the embedded store, which does not fail the check', () => {
      const environment = { ...production, BACKUP_URL: undefined };
      expect(messages(environment)).toEqual(['warning /etc/glazier.env: BACKUP_URL is not set']);
      expect(runLaunchCheck(ready, environment, TODAY).exitCode).toBe(0);
      // PostgreSQL keeps its own backups.
      expect(
        messages({ ...environment, DATABASE_URL: 'postgres://glass@db.example.nz/glass' }),
      ).toEqual([]);
    });

    it('no GTAG_ID is a warning, which does not fail the check', () => {
      const environment = { ...production, GTAG_ID: undefined };
      expect(messages(environment)).toEqual(['warning /etc/glazier.env: GTAG_ID is not set']);
      expect(runLaunchCheck(ready, environment, TODAY).exitCode).toBe(0);
    });

    it('a bad value is reported with the server’s own message, not a crash', () => {
      const found = checkLaunch(ready, { ...production, SITE_URL: 'glass shop' }, TODAY);
      expect(found).toEqual([
        {
          level: 'error',
          file: 'the server’s environment',
          message:
            'SITE_URL: must be an absolute http: or https: URL (the server will not start with this value)',
        },
      ]);
    });

    it('is a short list, one entry per setting', () => {
      expect(SETTINGS_CHECKS.map((check) => check.level)).toEqual([
        'error',
        'error',
        'warning',
        'warning',
        'warning',
      ]);
    });
  });

  it('warns, without failing, while illustrations stand in for photos of real jobs', () => {
    const content = { ...ready, illustrations: ['/images/services/windows-1.svg'] };
    const findings = checkLaunch(content, production, TODAY);
    expect(findings).toEqual([
      {
        level: 'warning',
        file: 'app/content/services.ts, app/content/glass-types.ts',
        message: expect.stringMatching(
          /^no photos of real jobs yet: 1 drawn illustrations stand in for them; for now a developer can add photos of real jobs/,
        ),
      },
    ]);
    // Nothing reads a photo folder or a manifest: the warning sends no one there.
    expect(JSON.stringify(findings)).not.toMatch(/public\/photos|manifest/);
    expect(runLaunchCheck(content, production, TODAY).exitCode).toBe(0);
  });

  it('lists the errors before the warnings, and ends with the count', () => {
    const { report, exitCode } = runLaunchCheck(
      {
        ...ready,
        content: { ...readyContent, offers: [{ ...realOffer, sample: true }] },
        illustrations: ['/x.svg'],
      },
      { ...production, GTAG_ID: '' },
      TODAY,
    );
    const lines = report.split('\n');
    expect(lines[0]).toMatch(/^ERROR {3}app\/content\/offers\.ts: offer 1/);
    expect(lines.slice(1, 3).every((line) => line.startsWith('WARNING '))).toBe(true);
    expect(lines.at(-1)).toBe('Not ready to launch: 1 thing to fix and 2 warnings.');
    expect(exitCode).toBe(1);
  });
});

describe('npm run check:launch on the content the site is built from', () => {
  let data: string;
  beforeEach(() => {
    data = mkdtempSync(path.join(tmpdir(), 'check-launch-data-'));
  });
  afterEach(() => {
    rmSync(data, { recursive: true, force: true });
  });

  const cli = (args: string[] = [], env: Record<string, string> = {}) =>
    run(process.execPath, ['scripts/check-launch.ts', ...args], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', DATA_DIR: data, ...env },
    }).then(
      ({ stdout }) => ({ code: 0, stdout }),
      (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
    );

  it('exits non-zero and names each file to edit', async () => {
    const { code, stdout } = await cli();
    expect(code).toBe(1);
    for (const file of [
      'app/content/business.ts',
      'app/content/facts.ts',
      'app/content/offers.ts',
      'app/content/testimonials.ts',
      'the server’s environment',
    ]) {
      expect(stdout).toContain(`ERROR   ${file}: `);
    }
    expect(stdout).toContain(
      'WARNING app/content/services.ts, app/content/glass-types.ts: no photos of real jobs yet: ',
    );
    expect(stdout).not.toContain('public/photos');
    expect(stdout).toMatch(/\nNot ready to launch: \d+ things to fix and \d+ warnings?\.\n$/);
  });

  it('passes once a complete content version is live in the lead store, no file edited', async () => {
    const store = await openSqliteStore({ dataDir: data });
    try {
      const complete = await store.createSiteContentVersion(
        { ...readyContent, offers: [{ ...realOffer, validUntil: '2099-12-31' }] },
        null,
      );
      await store.setSiteContentVersionState(complete.version, 'live');
      // A later version still publishing (or failed) is not what the site shows.
      await store.createSiteContentVersion(defaultSiteContent, null);
    } finally {
      await store.close();
    }
    const env = path.join(data, 'glazier.env');
    writeFileSync(
      env,
      Object.entries({ ...production, DATA_DIR: data })
        .map(([name, value]) => `${name}=${value}`)
        .join('\n'),
    );
    const { code, stdout } = await cli(['--env-file', env]);
    expect(stdout).not.toContain('ERROR');
    expect(stdout).toMatch(/\nReady to launch, with 1 warning to consider\.\n$/);
    expect(code).toBe(0);
  });

  it('reads the settings from --env-file', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'check-launch-'));
    try {
      const file = path.join(dir, 'glazier.env');
      writeFileSync(
        file,
        Object.entries(production)
          .map(([name, value]) => `${name}=${value}`)
          .join('\n'),
      );
      const { code, stdout } = await cli(['--env-file', file]);
      expect(code).toBe(1);
      expect(stdout).not.toContain(file);
      expect(stdout).not.toContain('the server’s environment');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

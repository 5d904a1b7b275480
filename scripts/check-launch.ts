/**
 * `npm run check:launch`: what the owner must still replace before the site
 * goes live (docs/operations.md#commands). One line per problem, each naming the file to edit
 * (or the published content version, edited at /admin/site); exits 1 while
 * any error is left (warnings do not fail it).
 *
 * The content checked is the one the site is built from
 * (docs/operations.md#site-content): the store's newest live version,
 * else the shipped files of app/content/; the content checks themselves are
 * app/content/launch-problems.ts, which the owner's pages also run.
 *
 * Usage: npm run check:launch [-- --env-file PATH]
 * The settings are read from PATH (the server's environment file) when
 * given, else from this shell's environment, through the server's own parser.
 */
import { readFileSync } from 'node:fs';
import { parseEnv as parseEnvFile } from 'node:util';
import { glassTypes } from '../app/content/glass-types.ts';
import { launchProblems } from '../app/content/launch-problems.ts';
import { services } from '../app/content/services.ts';
import {
  defaultSiteContent,
  type SiteContent,
  type SiteContentSection,
} from '../app/content/site-content.ts';
import { EnvError, parseEnv, type Env } from '../server/env.server.ts';
import { openStoreForBuild } from '../server/site-content-build.server.ts';

export interface LaunchContent {
  /** The site content the site is built from: the newest live version, or the defaults. */
  content: SiteContent;
  /** Its version: 0 for the shipped files of app/content/. */
  version: number;
  /** The drawn illustrations the pages show where a photo of a real job could go. */
  illustrations: readonly string[];
}

export interface LaunchFinding {
  level: 'error' | 'warning';
  /** The file to edit (or the published content's version, edited at /admin/site). */
  file: string;
  message: string;
}

/** Where each section of the shipped defaults is written. */
const FILES: Record<SiteContentSection, string> = {
  identity: 'app/content/business.ts',
  hours: 'app/content/facts.ts',
  offers: 'app/content/offers.ts',
  testimonials: 'app/content/testimonials.ts',
  notice: 'app/content/site-content.ts',
  jobPhotos: 'app/content/site-content.ts',
};
const ILLUSTRATION_FILES = 'app/content/services.ts, app/content/glass-types.ts';

/** Whether the site is being served from this machine only. */
function isLocalAddress(siteUrl: string): boolean {
  const host = new URL(siteUrl).hostname.replace(/^\[|\]$/g, '');
  return /(?:^|\.)localhost$/i.test(host) || /^(?:127\.|0\.0\.0\.0$|::1$)/.test(host);
}

/**
 * The settings a site started for real needs, one entry each, so a new
 * requirement (such as the e-mail delivery target was) is one more line here.
 */
/** Each webhook, and the e-mail when LEAD_EMAIL_TO is set (docs/operations.md#delivery). */
function deliveryTargetCount(env: Env): number {
  return new Set(env.LEAD_WEBHOOK_URLS).size + (env.LEAD_EMAIL_TO.length > 0 ? 1 : 0);
}

export const SETTINGS_CHECKS: ReadonlyArray<{
  level: LaunchFinding['level'];
  problem: (env: Env) => string | undefined;
}> = [
  {
    level: 'error',
    problem: (env) =>
      isLocalAddress(env.SITE_URL)
        ? `SITE_URL is ${env.SITE_URL}: set it to the site’s public address (https://…), used by canonical links, the sitemap and search results`
        : undefined,
  },
  {
    level: 'error',
    problem: (env) =>
      deliveryTargetCount(env) === 0
        ? 'no delivery target is set (LEAD_EMAIL_TO with SMTP_URL, or LEAD_WEBHOOK_URLS): leads would only be kept on this server, where nobody reads them; set up the lead e-mail (README, “Lead e-mails”), then run npm run leads -- test-delivery'
        : undefined,
  },
  {
    level: 'warning',
    problem: (env) =>
      deliveryTargetCount(env) === 1
        ? `only one delivery target is set (${env.LEAD_EMAIL_TO.length > 0 ? 'the e-mail' : 'one webhook'}): while it is down, leads wait on this server; a second one (an e-mail and a webhook) keeps them coming`
        : undefined,
  },
  {
    level: 'warning',
    problem: (env) =>
      env.BACKUP_URL || env.DATABASE_URL
        ? undefined
        : 'BACKUP_URL is not set: every enquiry, owner and published version is on this server’s disk only, and lost with it; set up the continuous backup (docs/operations.md#backups)',
  },
  {
    level: 'warning',
    problem: (env) =>
      env.GTAG_ID
        ? undefined
        : 'GTAG_ID is not set: the site will run without analytics, so visits and enquiries are not measured',
  },
];

/** Everything still sample or placeholder, errors first. */
export function checkLaunch(
  content: LaunchContent,
  environment: Record<string, string | undefined>,
  today: Date,
  environmentFile = 'the server’s environment',
): LaunchFinding[] {
  const findings: LaunchFinding[] = [];
  const error = (file: string, message: string) => findings.push({ level: 'error', file, message });
  const warning = (file: string, message: string) =>
    findings.push({ level: 'warning', file, message });

  const where = (section: SiteContentSection) =>
    content.version === 0
      ? FILES[section]
      : `the site content, version ${content.version} (edit it at /admin/site)`;
  for (const problem of launchProblems(content.content, today)) {
    error(where(problem.section), problem.message);
  }

  let env: Env | undefined;
  try {
    env = parseEnv(environment);
  } catch (problem) {
    if (!(problem instanceof EnvError)) throw problem;
    for (const line of problem.message.split('\n').slice(1)) {
      error(environmentFile, `${line.trim()} (the server will not start with this value)`);
    }
  }
  if (env) {
    for (const check of SETTINGS_CHECKS) {
      const message = check.problem(env);
      if (message) findings.push({ level: check.level, file: environmentFile, message });
    }
  }

  if (content.illustrations.length > 0) {
    warning(
      ILLUSTRATION_FILES,
      `no photos of real jobs yet: ${content.illustrations.length} drawn illustrations stand in for them; for now a developer can add photos of real jobs (put them in public/images/ and point these images at them)`,
    );
  }

  return findings.sort((a, b) => (a.level === b.level ? 0 : a.level === 'error' ? -1 : 1));
}

export function formatFindings(findings: readonly LaunchFinding[]): string {
  const errors = findings.filter((finding) => finding.level === 'error').length;
  const warnings = findings.length - errors;
  const lines = findings.map(
    (finding) =>
      `${finding.level === 'error' ? 'ERROR  ' : 'WARNING'} ${finding.file}: ${finding.message}`,
  );
  const summary =
    errors === 0
      ? `Ready to launch${warnings ? `, with ${warnings} warning${warnings === 1 ? '' : 's'} to consider` : ''}.`
      : `Not ready to launch: ${errors} thing${errors === 1 ? '' : 's'} to fix${warnings ? ` and ${warnings} warning${warnings === 1 ? '' : 's'}` : ''}.`;
  return [...lines, '', summary].join('\n').trimStart();
}

/**
 * The drawn illustrations still standing in for photos: a service with a
 * published photo of a real job no longer counts.
 */
export function illustrationsOf(content: SiteContent): string[] {
  const photographed = new Set(content.jobPhotos.map((photo) => photo.service));
  return [
    ...services
      .filter((service) => !photographed.has(service.slug))
      .flatMap((service) => service.images.map((image) => image.src)),
    ...glassTypes.map((glassType) => glassType.image.src),
  ].filter((src) => src.endsWith('.svg'));
}

/** The content as shipped in this repository (version 0). */
export function shippedContent(): LaunchContent {
  return {
    content: defaultSiteContent,
    version: 0,
    illustrations: illustrationsOf(defaultSiteContent),
  };
}

/**
 * The content the site is built from: the store's newest live version
 * (DATABASE_URL, else the embedded store in DATA_DIR), else the shipped
 * defaults; the same the build reads (scripts/build.ts).
 */
export async function effectiveContent(env: Env): Promise<LaunchContent> {
  const store = await openStoreForBuild(env);
  try {
    const live = store ? await store.newestLiveSiteContent() : null;
    if (!live) return shippedContent();
    return {
      content: live.content,
      version: live.version,
      illustrations: illustrationsOf(live.content),
    };
  } finally {
    await store?.close();
  }
}

/** The report and the exit status: 1 while any error is left. */
export function runLaunchCheck(
  content: LaunchContent,
  environment: Record<string, string | undefined>,
  today: Date,
  environmentFile?: string,
): { report: string; exitCode: 0 | 1 } {
  const findings = checkLaunch(content, environment, today, environmentFile);
  return {
    report: formatFindings(findings),
    exitCode: findings.some((finding) => finding.level === 'error') ? 1 : 0,
  };
}

async function main(argv: readonly string[]): Promise<number> {
  const at = argv.indexOf('--env-file');
  const envFile = at === -1 ? undefined : argv[at + 1];
  if (at !== -1 && !envFile) {
    console.error('Usage: npm run check:launch [-- --env-file PATH]');
    return 2;
  }
  let environment: Record<string, string | undefined> = process.env;
  if (envFile) {
    try {
      environment = parseEnvFile(readFileSync(envFile, 'utf8'));
    } catch (problem) {
      console.error(`Cannot read ${envFile}: ${(problem as Error).message}`);
      return 2;
    }
  }
  // The store named by the settings checked (DATA_DIR, DATABASE_URL); the
  // shipped content when they cannot be read (the check reports why).
  let content = shippedContent();
  let storeEnv: Env | undefined;
  try {
    storeEnv = parseEnv(environment);
  } catch {
    storeEnv = undefined;
  }
  if (storeEnv) {
    try {
      content = await effectiveContent(storeEnv);
    } catch (problem) {
      console.error(
        `Cannot read the site content from the lead store: ${(problem as Error).message}`,
      );
      return 2;
    }
  }
  const { report, exitCode } = runLaunchCheck(content, environment, new Date(), envFile);
  console.log(report);
  return exitCode;
}

if (import.meta.main) process.exitCode = await main(process.argv.slice(2));

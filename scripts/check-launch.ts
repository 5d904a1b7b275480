/**
 * `npm run check:launch`: what the owner must still replace before the site
 * goes live (docs/operations.md#commands). One line per problem, each naming the file to edit;
 * exits 1 while any error is left (warnings do not fail it).
 *
 * Usage: npm run check:launch [-- --env-file PATH]
 * The settings are read from PATH (the server's environment file) when
 * given, else from this shell's environment, through the server's own parser.
 */
import { readFileSync } from 'node:fs';
import { parseEnv as parseEnvFile } from 'node:util';
import {
  business,
  placeholderBusiness,
  type BusinessIdentity,
  type PlaceholderIdentity,
} from '../app/content/business.ts';
import { facts, unconfirmedFacts } from '../app/content/facts.ts';
import { glassTypes } from '../app/content/glass-types.ts';
import { offers, type Offer } from '../app/content/offers.ts';
import { services } from '../app/content/services.ts';
import { testimonials, type Testimonial } from '../app/content/testimonials.ts';
import { formatOfferDate, offerHasEnded } from '../app/components/home/home-cards.ts';
import { EnvError, parseEnv, type Env } from '../server/env.server.ts';

export interface LaunchContent {
  business: BusinessIdentity;
  /** What the identity shipped with (business.ts `placeholderBusiness`). */
  placeholders: PlaceholderIdentity;
  offers: readonly Offer[];
  testimonials: readonly Testimonial[];
  /** The facts module, for the ones still waiting for the owner's word. */
  facts: Record<string, unknown>;
  /** The drawn illustrations the pages show where a photo of a real job could go. */
  illustrations: readonly string[];
}

export interface LaunchFinding {
  level: 'error' | 'warning';
  /** The file to edit. */
  file: string;
  message: string;
}

const FILES = {
  business: 'app/content/business.ts',
  facts: 'app/content/facts.ts',
  offers: 'app/content/offers.ts',
  testimonials: 'app/content/testimonials.ts',
  illustrations: 'app/content/services.ts, app/content/glass-types.ts',
} as const;

/** Domains set aside for examples (RFC 2606, RFC 6761): never a real business's. */
const RESERVED_HOST = /(?:^|\.)(?:example\.(?:com|net|org)|example|test|invalid|localhost)$/i;

function isReservedEmail(email: string): boolean {
  return RESERVED_HOST.test(email.split('@').pop() ?? '');
}

function isReservedUrl(address: string): boolean {
  try {
    return RESERVED_HOST.test(new URL(address).hostname);
  } catch {
    return true;
  }
}

/** A social link that names no page (the bare site the placeholder points at). */
function namesNoPage(address: string): boolean {
  try {
    return new URL(address).pathname.replace(/\/+$/, '') === '';
  } catch {
    return true;
  }
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The identity checks: each a part of business.ts that must be the
 * business's own. A value equal to the shipped placeholder is a placeholder,
 * and so is one on an example domain or street.
 */
function identityFindings(identity: BusinessIdentity, shipped: PlaceholderIdentity): string[] {
  const problems: string[] = [];
  const still = (what: string, value: string) =>
    problems.push(`${what} is still the placeholder “${value}”: put the business’s own here`);

  if (identity.name === shipped.name) still('the business name (name)', identity.name);
  if (identity.legalName === shipped.legalName) {
    still('the legal name (legalName)', identity.legalName);
  }
  if (
    identity.phone.display === shipped.phone.display ||
    identity.phone.e164 === shipped.phone.e164
  ) {
    still('the phone number (phone)', identity.phone.display);
  }
  if (identity.email === shipped.email || isReservedEmail(identity.email)) {
    still('the e-mail address (email)', identity.email);
  }
  if (
    identity.address.street === shipped.address.street ||
    same(identity.address, shipped.address) ||
    /\bexample\b/i.test(identity.address.street)
  ) {
    still('the street address (address)', identity.address.street);
  }
  if (
    identity.mapEmbedUrl === shipped.mapEmbedUrl ||
    identity.mapLinkUrl === shipped.mapLinkUrl ||
    same(identity.geo, shipped.geo)
  ) {
    problems.push(
      'the map (mapEmbedUrl, mapLinkUrl, geo) still shows the placeholder location: point it at the business’s own address',
    );
  }
  const networks = { facebook: 'Facebook', instagram: 'Instagram' } as const;
  for (const [network, label] of Object.entries(networks) as Array<
    [keyof typeof networks, string]
  >) {
    const address = identity.social[network];
    if (address === shipped.social[network] || namesNoPage(address) || isReservedUrl(address)) {
      still(`the ${label} page (social.${network})`, address);
    }
  }
  const officer = identity.privacyOfficer;
  if (officer.email === shipped.privacyOfficer.email || isReservedEmail(officer.email)) {
    still('the Privacy Officer’s e-mail (privacyOfficer.email)', officer.email);
  }
  return problems;
}

/** The check says plainly why sample offers and reviews may not go live. */
const FAIR_TRADING_ACT = 'misleading under the Fair Trading Act 1986';

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

  for (const problem of identityFindings(content.business, content.placeholders)) {
    error(FILES.business, problem);
  }

  for (const fact of unconfirmedFacts(content.facts)) {
    error(
      FILES.facts,
      `${fact.key} is stated on the site but not yet confirmed by the business: ${fact.question} Correct it, then set confirmed: true`,
    );
  }

  for (const offer of content.offers) {
    const name = `offer ${offer.id} “${offer.title}”`;
    if (offer.sample) {
      error(
        FILES.offers,
        `${name} is sample content, not an offer the business has made (advertising an invented offer is ${FAIR_TRADING_ACT}): replace it with a real offer or remove it`,
      );
    }
    if (offerHasEnded(offer.validUntil, today)) {
      error(
        FILES.offers,
        `${name} ended on ${formatOfferDate(offer.validUntil)} (validUntil ${offer.validUntil}): give it a new end date or remove it`,
      );
    }
  }

  for (const testimonial of content.testimonials) {
    if (testimonial.sample) {
      error(
        FILES.testimonials,
        `testimonial ${testimonial.id} (“${testimonial.name}”, ${testimonial.location}) is an invented sample review, not a real customer’s (publishing invented reviews as real ones is ${FAIR_TRADING_ACT}): replace it with a real review, given with the customer’s permission, or remove it`,
      );
    }
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
      FILES.illustrations,
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

/** The site as shipped in this repository. */
export function shippedContent(): LaunchContent {
  const illustrations = [
    ...services.flatMap((service) => service.images.map((image) => image.src)),
    ...glassTypes.map((glassType) => glassType.image.src),
  ].filter((src) => src.endsWith('.svg'));
  return {
    business,
    placeholders: placeholderBusiness,
    offers,
    testimonials,
    facts,
    illustrations,
  };
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

function main(argv: readonly string[]): number {
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
  const { report, exitCode } = runLaunchCheck(shippedContent(), environment, new Date(), envFile);
  console.log(report);
  return exitCode;
}

if (import.meta.main) process.exitCode = main(process.argv.slice(2));

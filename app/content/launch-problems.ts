/**
 * What in the site content is still a placeholder, a sample or unconfirmed
 * (docs/operations.md#site-content): the business identity at its shipped
 * placeholders, facts not yet confirmed, sample offers and reviews, offers
 * past their date. `npm run check:launch` reports these for the content the
 * site is built from; the owner's pages can run it on the draft. Pure: no
 * file, store or clock of its own.
 */
import { placeholderBusiness, type PlaceholderIdentity } from './business.ts';
import { defaultFacts, OWNER_FACTS } from './facts.ts';
import { nzDate, type SiteContent, type SiteContentSection } from './site-content.ts';
import { formatLongDateNz } from './format-date.ts';

export interface LaunchProblem {
  /** The section of the content to edit. */
  section: SiteContentSection;
  message: string;
  /** The offer's or testimonial's id, when the problem is one of them. */
  item?: number;
  /** The field to fix, as its path in the section (or the item): 'phone.display', 'validUntil'. */
  field?: string;
}

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
 * The identity checks: each a part of the identity that must be the
 * business's own. A value equal to the shipped placeholder is a placeholder,
 * and so is one on an example domain or street.
 */
function identityProblems(
  identity: SiteContent['identity'],
  shipped: PlaceholderIdentity,
): Array<{ field: string; message: string }> {
  const problems: Array<{ field: string; message: string }> = [];
  const still = (what: string, value: string, field: string) =>
    problems.push({
      field,
      message: `${what} is still the placeholder “${value}”: put the business’s own here`,
    });

  if (identity.name === shipped.name) still('the business name (name)', identity.name, 'name');
  if (identity.legalName === shipped.legalName) {
    still('the legal name (legalName)', identity.legalName, 'legalName');
  }
  if (
    identity.phone.display === shipped.phone.display ||
    identity.phone.e164 === shipped.phone.e164
  ) {
    still('the phone number (phone)', identity.phone.display, 'phone.display');
  }
  if (identity.email === shipped.email || isReservedEmail(identity.email)) {
    still('the e-mail address (email)', identity.email, 'email');
  }
  const { country: _country, ...shippedAddress } = shipped.address;
  if (
    identity.address.street === shipped.address.street ||
    same(identity.address, shippedAddress) ||
    /\bexample\b/i.test(identity.address.street)
  ) {
    still('the street address (address)', identity.address.street, 'address.street');
  }
  if (
    identity.mapEmbedUrl === shipped.mapEmbedUrl ||
    identity.mapLinkUrl === shipped.mapLinkUrl ||
    (identity.geo !== undefined && same(identity.geo, shipped.geo))
  ) {
    problems.push({
      field: 'map',
      message:
        'the map (map) still shows the placeholder location: paste the business’s own Google Maps link, or type its address',
    });
  }
  const networks = { facebook: 'Facebook', instagram: 'Instagram' } as const;
  for (const [network, label] of Object.entries(networks) as Array<
    [keyof typeof networks, string]
  >) {
    const address = identity.social[network];
    if (address === shipped.social[network] || namesNoPage(address) || isReservedUrl(address)) {
      still(`the ${label} page (social.${network})`, address, `social.${network}`);
    }
  }
  const officer = identity.privacyOfficer;
  if (officer.email === shipped.privacyOfficer.email || isReservedEmail(officer.email)) {
    still(
      'the Privacy Officer’s e-mail (privacyOfficer.email)',
      officer.email,
      'privacyOfficer.email',
    );
  }
  return problems;
}

/** The check says plainly why sample offers and reviews may not go live. */
const FAIR_TRADING_ACT = 'misleading under the Fair Trading Act 1986';

/** Everything in `content` still to replace or confirm before launch, by section. */
export function launchProblems(
  content: SiteContent,
  today: Date,
  placeholders: PlaceholderIdentity = placeholderBusiness,
): LaunchProblem[] {
  const problems: LaunchProblem[] = [];
  const add = (
    section: SiteContentSection,
    message: string,
    where: { item?: number; field?: string } = {},
  ) => problems.push({ section, message, ...where });

  for (const { field, message } of identityProblems(content.identity, placeholders)) {
    add('identity', message, { field });
  }

  for (const key of OWNER_FACTS) {
    if (content.hours.facts[key].confirmed) continue;
    add(
      'hours',
      `${key} is stated on the site but not yet confirmed by the business: ${defaultFacts[key].question} Correct it, then set confirmed: true`,
      { field: `facts.${key}.confirmed` },
    );
  }

  const todayNz = nzDate(today);
  for (const offer of content.offers) {
    const name = `offer ${offer.id} “${offer.title}”`;
    if (offer.sample) {
      add(
        'offers',
        `${name} is sample content, not an offer the business has made (advertising an invented offer is ${FAIR_TRADING_ACT}): replace it with a real offer or remove it`,
        { item: offer.id },
      );
    }
    if (offer.validUntil < todayNz) {
      add(
        'offers',
        `${name} ended on ${formatLongDateNz(offer.validUntil)} (validUntil ${offer.validUntil}): give it a new end date or remove it`,
        { item: offer.id, field: 'validUntil' },
      );
    }
  }

  for (const testimonial of content.testimonials) {
    if (testimonial.sample) {
      add(
        'testimonials',
        `testimonial ${testimonial.id} (“${testimonial.name}”, ${testimonial.location}) is an invented sample review, not a real customer’s (publishing invented reviews as real ones is ${FAIR_TRADING_ACT}): replace it with a real review, given with the customer’s permission, or remove it`,
        { item: testimonial.id },
      );
    }
  }
  return problems;
}

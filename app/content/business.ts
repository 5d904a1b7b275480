/**
 * The business identity: the one place every page reads the name, phone,
 * e-mail, address, hours, emergency service, areas and links from. The
 * business's other promises and figures are in facts.ts.
 *
 * The name, phone, e-mail, address, map, social links and Privacy Officer
 * ship as neutral placeholders (`placeholderBusiness`) for the owner to
 * replace before launch; `npm run check:launch` lists every one still there.
 * Nothing else in the code base hard-codes any of them.
 *
 * What is written here is the default (`defaultBusiness`): what the owner
 * publishes from /admin/site replaces the identity, the hours and the
 * emergency service on every page rendered once it is in place (`business`,
 * through ./published.ts; docs/operations.md#site-content). Code outside
 * the pages (the e-mails, the CLIs) reads the published identity from the
 * store or the served release (./served-identity.ts).
 */
import { derived, published } from './published.ts';

import type { Weekday } from './content-names.ts';

export type { Weekday };

export interface OpeningHours {
  days: readonly Weekday[];
  /** 24-hour clock, 'HH:MM'. */
  opens: string;
  closes: string;
  /** How the hours read on the page, e.g. 'Mon-Fri 7AM-6PM'. */
  label: string;
}

export interface BusinessIdentity {
  name: string;
  legalName: string;
  tagline: string;
  foundedYear: number;
  phone: { display: string; /** E.164, used in tel: links */ e164: string };
  email: string;
  address: {
    street: string;
    suburb: string;
    city: string;
    postcode: string;
    region: string;
    country: 'NZ';
  };
  /** Where the business is, when known (the shipped default, or a pasted map link that says). */
  geo?: { latitude: number; longitude: number };
  hours: readonly OpeningHours[];
  emergency: {
    available: true;
    /** The badge, e.g. '24/7 Available': a label, not part of a sentence. */
    label: string;
    /** When the emergency line answers, for sentences: 'we answer 24/7'. */
    hours: string;
    /** The same in words, for sentences: 'call any time, day or night'. */
    anyTime: string;
    /** docs/business-rules.md#claims-and-promises, e.g. '1-2 hours'. */
    responseTime: string;
  };
  areasServed: readonly string[];
  serviceRadiusKm: number;
  reviews: { count: number; rating: number; bestRating: number };
  social: { facebook: string; instagram: string };
  /** The address of the embeddable interactive map (an iframe src). */
  mapEmbedUrl: string;
  /** A plain link that opens the location in a maps service. */
  mapLinkUrl: string;
  /** The business's page for writing a Google review, when the owner has set one. */
  googleReviewUrl?: string | undefined;
  /**
   * Privacy Act 2020 s 201: the person who handles privacy requests. The
   * privacy policy names the role and, when given, the person.
   */
  privacyOfficer: { role: string; name?: string; email: string };
}

/** The parts of the identity the owner must replace before launch. */
export type PlaceholderIdentity = Pick<
  BusinessIdentity,
  | 'name'
  | 'legalName'
  | 'phone'
  | 'email'
  | 'address'
  | 'geo'
  | 'social'
  | 'mapEmbedUrl'
  | 'mapLinkUrl'
  | 'privacyOfficer'
>;

/**
 * The neutral values the site ships with. `npm run check:launch`
 * (scripts/check-launch.ts) reports any identity value still equal to one of
 * these, or still on a reserved example domain or street, so change a
 * placeholder here and in `business` together.
 */
export const placeholderBusiness = {
  name: 'Harbourside Glass',
  legalName: 'Harbourside Glass Limited',
  phone: { display: '07 555 0123', e164: '+6475550123' },
  email: 'hello@example.com',
  address: {
    street: 'Unit 4, 25 Example Place',
    suburb: 'Tauriko',
    city: 'Tauranga',
    postcode: '3110',
    region: 'Bay of Plenty',
    country: 'NZ',
  },
  geo: { latitude: -37.7447, longitude: 176.0921 },
  social: {
    facebook: 'https://www.facebook.com/',
    instagram: 'https://www.instagram.com/',
  },
  mapEmbedUrl: 'https://www.google.com/maps?q=Tauriko,+Tauranga+3110&z=12&output=embed',
  mapLinkUrl: 'https://www.google.com/maps/search/?api=1&query=Tauriko%2C+Tauranga+3110',
  privacyOfficer: { role: 'Privacy Officer', email: 'privacy@example.com' },
} as const satisfies PlaceholderIdentity;

/** The shipped identity: the default until the owner publishes their own. */
export const defaultBusiness = {
  name: 'Harbourside Glass',
  legalName: 'Harbourside Glass Limited',
  tagline: 'Glass repairs, replacement and installation across the western Bay of Plenty',
  foundedYear: 2008,
  phone: { display: '07 555 0123', e164: '+6475550123' },
  email: 'hello@example.com',
  address: {
    street: 'Unit 4, 25 Example Place',
    suburb: 'Tauriko',
    city: 'Tauranga',
    postcode: '3110',
    region: 'Bay of Plenty',
    country: 'NZ',
  },
  geo: { latitude: -37.7447, longitude: 176.0921 },
  hours: [
    {
      days: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'],
      opens: '07:00',
      closes: '18:00',
      label: 'Mon-Fri 7AM-6PM',
    },
    { days: ['Saturday'], opens: '08:00', closes: '16:00', label: 'Sat 8AM-4PM' },
  ],
  emergency: {
    available: true,
    label: '24/7 Available',
    hours: '24/7',
    anyTime: 'day or night',
    responseTime: '1-2 hours',
  },
  areasServed: ['Tauranga', 'Mount Maunganui', 'Papamoa', 'Te Puke', 'Katikati'],
  serviceRadiusKm: 200,
  reviews: { count: 47, rating: 5, bestRating: 5 },
  social: {
    facebook: 'https://www.facebook.com/',
    instagram: 'https://www.instagram.com/',
  },
  mapEmbedUrl: 'https://www.google.com/maps?q=Tauriko,+Tauranga+3110&z=12&output=embed',
  mapLinkUrl: 'https://www.google.com/maps/search/?api=1&query=Tauriko%2C+Tauranga+3110',
  privacyOfficer: { role: 'Privacy Officer', email: 'privacy@example.com' },
} as const satisfies BusinessIdentity;

/** The identity the pages state: the published one where there is one. */
export let business: BusinessIdentity = defaultBusiness;
/** 'Unit 4, 25 Example Place, Tauriko, Tauranga 3110' */
export let fullAddress = '';
export let telHref = '';
export let mailHref = '';

derived(() => {
  const content = published()?.content;
  const identity = content?.identity;
  const hours = content?.hours;
  const { geo: _geo, ...shipped } = defaultBusiness;
  business = {
    ...(identity ? shipped : defaultBusiness),
    ...(identity
      ? {
          ...identity,
          address: { ...identity.address, country: 'NZ' as const },
          privacyOfficer: {
            role: identity.privacyOfficer.role,
            email: identity.privacyOfficer.email,
            ...(identity.privacyOfficer.name ? { name: identity.privacyOfficer.name } : {}),
          },
        }
      : {}),
    ...(hours
      ? {
          hours: hours.openingHours,
          emergency: { available: true as const, ...hours.emergency },
        }
      : {}),
  };
  fullAddress = `${business.address.street}, ${business.address.suburb}, ${business.address.city} ${business.address.postcode}`;
  telHref = `tel:${business.phone.e164}`;
  mailHref = `mailto:${business.email}`;
});

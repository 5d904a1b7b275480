/**
 * The business identity: the one place every page reads the name, phone,
 * e-mail, address, hours and links from.
 *
 * Every value here is a neutral placeholder for the owner to replace before
 * launch. Nothing else in the code base hard-codes any of them.
 */

export interface OpeningHours {
  /** Schema.org day names, e.g. ['Monday', 'Tuesday']. */
  days: readonly string[];
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
  geo: { latitude: number; longitude: number };
  hours: readonly OpeningHours[];
  emergency: { available: true; label: string; responseTime: string };
  areasServed: readonly string[];
  serviceRadiusKm: number;
  reviews: { count: number; rating: number; bestRating: number };
  social: { facebook: string; instagram: string };
  /** The address of the embeddable interactive map (an iframe src). */
  mapEmbedUrl: string;
  /** A plain link that opens the location in a maps service. */
  mapLinkUrl: string;
}

export const business = {
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
  emergency: { available: true, label: '24/7 Available', responseTime: '1-2 hours' },
  areasServed: ['Tauranga', 'Mount Maunganui', 'Papamoa', 'Te Puke', 'Katikati'],
  serviceRadiusKm: 200,
  reviews: { count: 47, rating: 5, bestRating: 5 },
  social: {
    facebook: 'https://www.facebook.com/',
    instagram: 'https://www.instagram.com/',
  },
  mapEmbedUrl: 'https://www.google.com/maps?q=Tauriko,+Tauranga+3110&z=12&output=embed',
  mapLinkUrl: 'https://www.google.com/maps/search/?api=1&query=Tauriko%2C+Tauranga+3110',
} as const satisfies BusinessIdentity;

/** 'Unit 4, 25 Example Place, Tauriko, Tauranga 3110' */
export const fullAddress = `${business.address.street}, ${business.address.suburb}, ${business.address.city} ${business.address.postcode}`;

export const telHref = `tel:${business.phone.e164}`;
export const mailHref = `mailto:${business.email}`;
export const yearsOfExperience = '15+';

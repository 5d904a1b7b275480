import { SERVICE_SLUGS, type SiteIdentity } from '../content/site-content.ts';
import { placeholderBusiness } from '../content/business.ts';
import { OWNER_FACTS, type OwnerFacts } from '../content/facts.ts';
import { services } from '../content/services.ts';
import { glassTypes } from '../content/glass-types.ts';
import { PHONE_DISPLAY_MAX } from '../content/nz-phone.ts';
import { MAP_TEXT_MAX } from '../content/map-place.ts';
import { formValuesOf, type FormValues } from './site-form-values.ts';

/**
 * The fields of /admin/site's forms (docs/operations.md, "Owner's pages"):
 * each field's name is its path in the section's content
 * ('phone.display', 'facts.leadTimes.confirmed', 'openingHours.0.days'),
 * so a form reads into the content and a schema's refusal finds its field.
 * What the schemas decide is theirs (app/content/site-content.ts); a field
 * here only says how its text becomes a value: a number, a checkbox, a list
 * of days, an optional line (empty is left out).
 */

export type FieldKind =
  | 'text'
  | 'optional'
  | 'textarea'
  | 'optional-textarea'
  | 'number'
  | 'checkbox'
  | 'date'
  | 'optional-date'
  | 'time'
  | 'days'
  | 'select'
  | 'rating';

export interface FieldSpec {
  name: string;
  label: string;
  kind: FieldKind;
  hint?: string;
  /** For `select`: value and words. */
  options?: ReadonlyArray<{ value: string; label: string }>;
  /** The browser's own limit, when the schema has one. */
  maxLength?: number;
  type?: 'email' | 'url' | 'tel';
  autocomplete?: string;
}

export const WEEKDAY_NAMES = [
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
  'Sunday',
] as const;

export const TESTIMONIAL_ROLES = [
  'Homeowner',
  'Business Owner',
  'Property Manager',
  'Contractor',
  'Interior Designer',
] as const;

export const SERVICE_OPTIONS = SERVICE_SLUGS.map((slug) => ({
  value: slug,
  label: services.find((service) => service.slug === slug)?.title ?? slug,
}));

export const IDENTITY_FIELDS: readonly FieldSpec[] = [
  { name: 'name', label: 'Business name', kind: 'text', maxLength: 80 },
  { name: 'legalName', label: 'Legal name', kind: 'text', maxLength: 120 },
  {
    name: 'phone.display',
    label: 'Phone number',
    kind: 'text',
    type: 'tel',
    hint: 'As visitors read it and call it, such as 07 578 2468, 021 123 4567 or 0800 123 456',
    maxLength: PHONE_DISPLAY_MAX,
  },
  { name: 'email', label: 'E-mail address', kind: 'text', type: 'email', maxLength: 254 },
  { name: 'address.street', label: 'Street address', kind: 'text', maxLength: 120 },
  { name: 'address.suburb', label: 'Suburb', kind: 'text', maxLength: 60 },
  { name: 'address.city', label: 'Town or city', kind: 'text', maxLength: 60 },
  { name: 'address.postcode', label: 'Postcode', kind: 'text', maxLength: 4 },
  { name: 'address.region', label: 'Region', kind: 'text', maxLength: 60 },
  {
    name: 'map',
    label: 'Google Maps link or address',
    kind: 'optional',
    maxLength: MAP_TEXT_MAX,
    hint: 'In Google Maps, find the business, tap Share, then Copy link, and paste it here. Or type the address. Left empty, the map shows the street address above.',
  },
  {
    name: 'googleReviewUrl',
    label: 'Google review link',
    kind: 'optional',
    type: 'url',
    maxLength: 2000,
    hint: 'Shown to a customer after they send you a review, so they can post one on Google too. In your Google Business Profile, tap Ask for reviews, copy the link and paste it here. Optional.',
  },
  { name: 'social.facebook', label: 'Facebook page', kind: 'text', type: 'url' },
  { name: 'social.instagram', label: 'Instagram page', kind: 'text', type: 'url' },
  {
    name: 'privacyOfficer.role',
    label: 'Privacy Officer’s role',
    kind: 'text',
    maxLength: 60,
    hint: 'As the privacy policy names them, such as Privacy Officer',
  },
  { name: 'privacyOfficer.name', label: 'Privacy Officer’s name', kind: 'optional', maxLength: 80 },
  {
    name: 'privacyOfficer.email',
    label: 'Privacy Officer’s e-mail address',
    kind: 'text',
    type: 'email',
    maxLength: 254,
  },
];

/** The facts check:launch asks the owner to confirm: their figures, then "confirmed". */
export const FACT_FIELDS: Record<keyof OwnerFacts, { title: string; fields: FieldSpec[] }> = {
  leadTimes: {
    title: 'Lead times',
    fields: [
      { name: 'madeToMeasure', label: 'Made-to-measure lead time', kind: 'text', maxLength: 60 },
      { name: 'cutFromStock', label: 'Cut-from-stock lead time', kind: 'text', maxLength: 60 },
    ],
  },
  installTimes: {
    title: 'Fitting times',
    fields: [
      {
        name: 'paneOrSplashback',
        label: 'Time to fit a pane or splashback',
        kind: 'text',
        maxLength: 60,
      },
      { name: 'showerScreen', label: 'Time to fit a shower screen', kind: 'text', maxLength: 60 },
      { name: 'retrofitRoom', label: 'Time to retrofit a room', kind: 'text', maxLength: 60 },
      {
        name: 'doubleGlazedUnit',
        label: 'Time to fit a double-glazed unit',
        kind: 'text',
        maxLength: 60,
      },
    ],
  },
  quoteValidity: {
    title: 'Quotes',
    fields: [{ name: 'days', label: 'Days a quote stays valid', kind: 'number' }],
  },
  paymentTerms: {
    title: 'Payment',
    fields: [{ name: 'days', label: 'Days to pay an invoice', kind: 'number' }],
  },
  serverLogRetention: {
    title: 'Server logs',
    fields: [{ name: 'days', label: 'Days the server logs are kept', kind: 'number' }],
  },
  leadBackupRetention: {
    title: 'Backups of enquiries',
    fields: [{ name: 'days', label: 'Days backups are kept', kind: 'number' }],
  },
};

/** The most opening-hours lines (the schema's limit). */
export const OPENING_LINES_MAX = 7;

/** The hours form: the lines there are and one empty line more (up to 7), the emergency words, the facts. */
export function hoursFields(lines: number): FieldSpec[] {
  const count = Math.min(OPENING_LINES_MAX, lines + 1);
  const fields: FieldSpec[] = [];
  for (let index = 0; index < count; index++) {
    const at = `openingHours.${index}`;
    fields.push(
      { name: `${at}.days`, label: 'Days', kind: 'days' },
      { name: `${at}.opens`, label: 'Opens at', kind: 'time' },
      { name: `${at}.closes`, label: 'Closes at', kind: 'time' },
      {
        name: `${at}.label`,
        label: 'Hours as shown',
        kind: 'text',
        maxLength: 40,
        hint: 'Such as 7:30am – 5:00pm',
      },
    );
  }
  fields.push(
    { name: 'emergency.label', label: 'Emergency badge', kind: 'text', maxLength: 30 },
    { name: 'emergency.hours', label: 'Emergency hours', kind: 'text', maxLength: 30 },
    { name: 'emergency.anyTime', label: 'Emergency hours in words', kind: 'text', maxLength: 60 },
    {
      name: 'emergency.responseTime',
      label: 'Emergency response time',
      kind: 'text',
      maxLength: 30,
    },
  );
  for (const key of OWNER_FACTS) {
    for (const field of FACT_FIELDS[key].fields) {
      fields.push({ ...field, name: `facts.${key}.${field.name}` });
    }
    fields.push({
      name: `facts.${key}.confirmed`,
      label: 'The business confirms this',
      kind: 'checkbox',
    });
  }
  return fields;
}

/**
 * Where an offer's button may lead, by name: a call to the business phone
 * ('tel', which the offer card turns into the phone's link) or one of the
 * site's main, service and glass pages. A value saved earlier that is not
 * among them is kept as an option of its own (SiteField).
 */
const OFFER_LINK_OPTIONS: ReadonlyArray<{ value: string; label: string }> = [
  { value: 'tel', label: 'A call to your phone number' },
  { value: '/quote', label: 'The quote form' },
  { value: '/contact', label: 'The contact page' },
  { value: '/services', label: 'The services page' },
  ...services.map((service) => ({ value: service.path, label: `Services: ${service.title}` })),
  ...glassTypes.map((glass) => ({ value: glass.path, label: `Glass: ${glass.navTitle}` })),
  { value: '/about', label: 'The about page' },
  { value: '/', label: 'The home page' },
];

export const OFFER_FIELDS: readonly FieldSpec[] = [
  { name: 'title', label: 'Offer title', kind: 'text', maxLength: 100 },
  { name: 'discount', label: 'Discount', kind: 'text', maxLength: 40, hint: 'Such as $50 off' },
  { name: 'description', label: 'Description', kind: 'optional-textarea', maxLength: 400 },
  { name: 'originalPrice', label: 'Original price', kind: 'optional', maxLength: 30 },
  { name: 'discountedPrice', label: 'Discounted price', kind: 'optional', maxLength: 30 },
  {
    name: 'validUntil',
    label: 'Valid until',
    kind: 'date',
    hint: 'The last day it runs, in New Zealand',
  },
  { name: 'terms', label: 'Terms', kind: 'textarea', maxLength: 1000 },
  { name: 'ctaText', label: 'Button text', kind: 'text', maxLength: 40 },
  {
    name: 'ctaLink',
    label: 'Button leads to',
    kind: 'select',
    options: OFFER_LINK_OPTIONS,
  },
  {
    name: 'featured',
    label: 'Featured (one offer at most: this one replaces any other)',
    kind: 'checkbox',
  },
];

export const TESTIMONIAL_FIELDS: readonly FieldSpec[] = [
  { name: 'name', label: 'Customer’s name', kind: 'text', maxLength: 60, hint: 'Such as Aroha T.' },
  {
    name: 'role',
    label: 'Customer is a',
    kind: 'select',
    options: TESTIMONIAL_ROLES.map((role) => ({ value: role, label: role })),
  },
  { name: 'location', label: 'Where the customer is', kind: 'text', maxLength: 60 },
  { name: 'rating', label: 'Rating', kind: 'rating' },
  { name: 'review', label: 'Review', kind: 'textarea', maxLength: 1000 },
  {
    name: 'permission',
    label: 'The customer agreed to publication',
    kind: 'checkbox',
    hint: 'Required: publish a review only with the customer’s permission',
  },
];

export const NOTICE_FIELDS: readonly FieldSpec[] = [
  {
    name: 'text',
    label: 'Notice',
    kind: 'textarea',
    maxLength: 280,
    hint: 'Plain words on one line, at most 280 characters; shown exactly as written',
  },
  { name: 'startsOn', label: 'Show from', kind: 'optional-date', hint: 'Empty: from now' },
  { name: 'endsOn', label: 'Show until', kind: 'optional-date', hint: 'Empty: until removed' },
];

export const JOB_PHOTO_FIELDS: readonly FieldSpec[] = [
  { name: 'service', label: 'Service', kind: 'select', options: SERVICE_OPTIONS },
  {
    name: 'alt',
    label: 'Description for screen readers',
    kind: 'text',
    maxLength: 150,
    hint: 'What the photo shows, such as A new frameless shower screen in Bethlehem',
  },
  { name: 'caption', label: 'Caption', kind: 'optional', maxLength: 200 },
];

/**
 * The business details as their form shows them. Content saved before the
 * map was set by a link shows its map link, so saving again keeps the
 * place; the shipped placeholder shows nothing, so the map follows the
 * street address.
 */
export function identityFormValues(content: SiteIdentity): FormValues {
  const values = formValuesOf(content, IDENTITY_FIELDS);
  if (content.map === undefined && content.mapLinkUrl !== placeholderBusiness.mapLinkUrl) {
    values.map = content.mapLinkUrl;
  }
  return values;
}

export {
  contentFrom,
  fieldErrors,
  fieldId,
  formValuesFrom,
  formValuesOf,
  type FieldErrors,
  type FormValues,
  type SectionContent,
} from './site-form-values.ts';

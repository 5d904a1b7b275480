import { REVIEW_LIMITS, type NewReview } from '../db/reviews/reviews.server.ts';

/**
 * The customer's review form (docs/operations.md, "Reviews"): its fields,
 * the check of what was posted, and a message beside each field it
 * refuses. The page (app/pages/on-demand/review/[token].astro) shows the
 * form again with the values as typed when anything is refused.
 */

export const REVIEW_FIELD = {
  rating: 'rating',
  text: 'review',
  name: 'name',
  suburb: 'suburb',
  consent: 'consent',
} as const;

export type ReviewField = (typeof REVIEW_FIELD)[keyof typeof REVIEW_FIELD];

export const REVIEW_MESSAGES = {
  rating: 'Please choose a rating from 1 to 5 stars',
  textShort: `Please write at least ${REVIEW_LIMITS.textMin} characters about the job`,
  textLong: `Please keep your review to ${REVIEW_LIMITS.textMax} characters`,
  nameMissing: 'Please enter the name to show, such as your first name and initial',
  nameLong: `Please keep the name to ${REVIEW_LIMITS.nameMax} characters`,
  suburbMissing: 'Please enter your suburb or town',
  suburbLong: `Please keep the suburb to ${REVIEW_LIMITS.suburbMax} characters`,
  characters: 'Please remove unusual characters',
  consent: 'Please tick the box to let us publish your review',
} as const;

/** The values as posted, shown again when something is refused. */
export type ReviewFormValues = Record<ReviewField, string>;

export type ReviewFormCheck =
  | { ok: true; review: Omit<NewReview, 'consent_at'>; values: ReviewFormValues }
  | { ok: false; errors: Partial<Record<ReviewField, string>>; values: ReviewFormValues };

/**
 * Control characters (but line breaks and tab), DEL and the C1 controls, and
 * the bidirectional overrides: a single character class, linear in its input.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNUSUAL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** Characters as a person counts them (code points), after trimming. */
export function characterCount(text: string): number {
  return [...text.trim()].length;
}

/** Line breaks as one kind, the ends trimmed. */
const clean = (value: string | null) => (value ?? '').replace(/\r\n?/g, '\n').trim();

export function checkReviewForm(form: URLSearchParams): ReviewFormCheck {
  const values: ReviewFormValues = {
    rating: clean(form.get(REVIEW_FIELD.rating)),
    review: clean(form.get(REVIEW_FIELD.text)),
    name: clean(form.get(REVIEW_FIELD.name)),
    suburb: clean(form.get(REVIEW_FIELD.suburb)),
    consent: form.get(REVIEW_FIELD.consent) === 'yes' ? 'yes' : '',
  };
  const errors: Partial<Record<ReviewField, string>> = {};
  const rating = /^[1-5]$/.test(values.rating) ? Number(values.rating) : null;
  if (rating === null) errors.rating = REVIEW_MESSAGES.rating;

  const textLength = characterCount(values.review);
  if (UNUSUAL.test(values.review)) errors.review = REVIEW_MESSAGES.characters;
  else if (textLength < REVIEW_LIMITS.textMin) errors.review = REVIEW_MESSAGES.textShort;
  else if (textLength > REVIEW_LIMITS.textMax) errors.review = REVIEW_MESSAGES.textLong;

  const line = (value: string, missing: string, long: string, max: number) =>
    value === ''
      ? missing
      : UNUSUAL.test(value) || value.includes('\n')
        ? REVIEW_MESSAGES.characters
        : characterCount(value) > max
          ? long
          : undefined;
  const nameError = line(
    values.name,
    REVIEW_MESSAGES.nameMissing,
    REVIEW_MESSAGES.nameLong,
    REVIEW_LIMITS.nameMax,
  );
  if (nameError) errors.name = nameError;
  const suburbError = line(
    values.suburb,
    REVIEW_MESSAGES.suburbMissing,
    REVIEW_MESSAGES.suburbLong,
    REVIEW_LIMITS.suburbMax,
  );
  if (suburbError) errors.suburb = suburbError;

  if (values.consent !== 'yes') errors.consent = REVIEW_MESSAGES.consent;

  if (Object.keys(errors).length > 0 || rating === null) return { ok: false, errors, values };
  return {
    ok: true,
    values,
    review: {
      rating: rating as NewReview['rating'],
      text: values.review,
      display_name: values.name,
      suburb: values.suburb,
    },
  };
}

/** The name to show, from the name the customer gave: 'Aroha Ngata' → 'Aroha N.'. */
export function displayNameOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const first = words[0] ?? '';
  const last = words.length > 1 ? words[words.length - 1] : undefined;
  const initial = last ? [...last][0]?.toLocaleUpperCase('en-NZ') : undefined;
  return [...`${first}${initial ? ` ${initial}.` : ''}`].slice(0, REVIEW_LIMITS.nameMax).join('');
}

/**
 * The business's phone number, typed once as visitors read it, and the
 * international form every `tel:` link, the JSON-LD and the e-mails dial
 * (docs/decisions/0012-new-zealand-phone-numbers-by-rule.md). Only New
 * Zealand numbers: the business is in New Zealand and so is its phone.
 *
 * The rules are New Zealand's numbering plan as a visitor dials it:
 * - a landline is 0, an area code (3, 4, 6, 7 or 9) and seven digits, the
 *   first of them 2 to 9: 07 578 2468;
 * - a mobile is 02, one more digit and six to eight digits: 021 123 456,
 *   022 123 4567, 027 1234 5678;
 * - a freephone is 0800 or 0508 and six or seven digits: 0800 123 456;
 * - the same numbers typed with +64 (or 0064) in place of the 0, with or
 *   without a "(0)": +64 7 578 2468, +64 (0)7 578 2468.
 * Spaces, hyphens, dots and brackets are only spacing. Anything else is
 * refused, with a sentence saying why.
 */

/** The number as typed: at most this many characters (the field's limit). */
export const PHONE_DISPLAY_MAX = 30;

export type DialledNumber = { ok: true; e164: string } | { ok: false; message: string };

const LABEL = 'Phone number';

export const PHONE_MESSAGES = {
  empty: `${LABEL}: enter it`,
  tooLong: `${LABEL}: at most ${PHONE_DISPLAY_MAX} characters`,
  characters: `${LABEL}: digits and spaces only, such as 07 578 2468`,
  overseas: `${LABEL}: a New Zealand number, such as 07 578 2468 or 021 123 4567`,
  areaCode: `${LABEL}: add the area code at the start, such as 07 578 2468`,
  landline: `${LABEL}: a landline number is 0, the area code and seven digits, such as 07 578 2468`,
  mobile: `${LABEL}: a mobile number is 02 and then seven to nine digits, such as 021 123 4567`,
  freephone: `${LABEL}: an 0800 or 0508 number has six or seven digits after it, such as 0800 123 456`,
  notDialable: `${LABEL}: this is not a number people can call; start with the area code (such as 07), 02 for a mobile, or 0800`,
} as const;

/** Only digits and spacing, an optional + first. Checked by character, so no pattern can backtrack. */
function onlyDigitsAndSpacing(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const char = text[index] ?? '';
    if (char === '+' && index === 0) continue;
    if (!'0123456789 -.()'.includes(char)) return false;
  }
  return true;
}

/** The number without its leading 0 or +64 (the national significant number), or why not. */
function nationalNumber(
  typed: string,
): { ok: true; digits: string } | { ok: false; message: string } {
  const digits = typed.replace(/[^0-9]/g, '');
  let rest: string;
  if (typed.startsWith('+') || digits.startsWith('00')) {
    const international = typed.startsWith('+') ? digits : digits.slice(2);
    if (!international.startsWith('64')) return { ok: false, message: PHONE_MESSAGES.overseas };
    rest = international.slice(2);
    // "+64 (0)7 …": the 0 is dialled only from inside New Zealand.
    if (rest.startsWith('0')) rest = rest.slice(1);
  } else if (digits.startsWith('0')) {
    rest = digits.slice(1);
  } else {
    return {
      ok: false,
      message: digits.length === 7 ? PHONE_MESSAGES.areaCode : PHONE_MESSAGES.notDialable,
    };
  }
  return { ok: true, digits: rest };
}

/** The international form (+64…) of a New Zealand number as typed, or a sentence saying why not. */
export function dialledNumber(typed: string): DialledNumber {
  const text = typed.trim();
  if (text === '') return { ok: false, message: PHONE_MESSAGES.empty };
  if (text.length > PHONE_DISPLAY_MAX) return { ok: false, message: PHONE_MESSAGES.tooLong };
  if (!onlyDigitsAndSpacing(text)) return { ok: false, message: PHONE_MESSAGES.characters };
  const national = nationalNumber(text);
  if (!national.ok) return national;
  const { digits } = national;
  const first = digits.charAt(0);
  let fits: boolean;
  let message: string;
  if (digits.startsWith('800') || digits.startsWith('508')) {
    fits = digits.length === 9 || digits.length === 10;
    message = PHONE_MESSAGES.freephone;
  } else if (first !== '' && '34679'.includes(first) && !'01'.includes(digits.charAt(1))) {
    fits = digits.length === 8;
    message = PHONE_MESSAGES.landline;
  } else if (first === '2') {
    fits = digits.length >= 8 && digits.length <= 10;
    message = PHONE_MESSAGES.mobile;
  } else {
    fits = false;
    message = PHONE_MESSAGES.notDialable;
  }
  return fits ? { ok: true, e164: `+64${digits}` } : { ok: false, message };
}

/** A stored international form from before the number was typed once: + and 8 to 15 digits. */
export function isInternationalForm(text: string): boolean {
  return /^\+[1-9]\d{7,14}$/.test(text);
}

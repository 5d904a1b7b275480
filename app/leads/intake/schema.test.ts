import { describe, expect, it } from 'vitest';
import {
  CALLBACK_SERVICE_TYPES,
  callbackToLead,
  EMAIL_LENGTH_MESSAGE,
  EMAIL_PATTERN,
  enquiryToLead,
  HONEYPOT_FIELD,
  HONEYPOT_MESSAGE,
  IDEMPOTENCY_KEY_MESSAGE,
  INVALID_EMAIL_MESSAGE,
  LIMITS,
  MESSAGE_CHARACTERS_MESSAGE,
  MESSAGE_LENGTH_MESSAGE,
  NAME_CHARACTERS_MESSAGE,
  NAME_LENGTH_MESSAGE,
  NAME_PART_LENGTH_MESSAGE,
  PHONE_CHARACTERS_MESSAGE,
  PHONE_LENGTH_MESSAGE,
  POSTCODE_CHARACTERS_MESSAGE,
  POSTCODE_LENGTH_MESSAGE,
  REQUIRED_FIELDS_MESSAGE,
  SERVICE_CHOICE_MESSAGE,
  SERVICE_OPTIONS,
  SERVICE_TYPE_CHOICE_MESSAGE,
  SOURCE_MESSAGE,
  SUBMIT_FAILED_MESSAGE,
  UNEXPECTED_ERROR_MESSAGE,
  URGENT_FIELD,
  URGENT_LABEL,
  URGENT_MESSAGE,
  URGENT_VALUE,
  validateCallbackForm,
  validateEnquiryForm,
  validateLead,
  ATTRIBUTION_MESSAGE,
  LANDING_MESSAGE,
  REFERRER_MESSAGE,
} from './schema.ts';
import {
  ATTRIBUTION_FIELDS,
  ATTRIBUTION_FORBIDDEN,
  attributionOf,
  NO_ATTRIBUTION,
} from './attribution.ts';
import { SINGLE_LINE_FORBIDDEN } from './form-rules.ts';

const enquiry = {
  name: 'Aroha Ngata',
  email: 'aroha@example.co.nz',
  phone: '021 555 0101',
  service: 'Windows',
  message: 'Cracked pane in the lounge window',
};
const lead = { ...enquiry, source: 'contact_form' };
const callback = {
  firstName: 'Aroha',
  lastName: 'Ngata',
  email: 'aroha@example.co.nz',
  phone: '021 555 0101',
  postcode: '3110',
  serviceType: 'Business Glass',
};

function failure(
  result: ReturnType<
    typeof validateLead | typeof validateEnquiryForm | typeof validateCallbackForm
  >,
) {
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result.value)}`);
  return result;
}

describe('messages and constants', () => {
  it('uses the documented message texts', () => {
    expect(REQUIRED_FIELDS_MESSAGE).toBe('Please fill in all required fields');
    expect(INVALID_EMAIL_MESSAGE).toBe('Please enter a valid email address');
    expect(SUBMIT_FAILED_MESSAGE).toBe(
      'Unable to submit your request. Please try again or call us directly.',
    );
    expect(UNEXPECTED_ERROR_MESSAGE).toBe('An unexpected error occurred. Please try again.');
  });

  it('lists the nine services in their documented order and the two call-back types', () => {
    expect(SERVICE_OPTIONS).toEqual([
      'Shower Installations',
      'Windows',
      'Doors',
      'Cat Doors',
      'Splashbacks',
      'All Glass Repairs',
      'Balustrades',
      'Retrofit',
      'Pool Fence',
    ]);
    expect(CALLBACK_SERVICE_TYPES).toEqual(['Home Glass', 'Business Glass']);
  });

  it('exports the documented limits', () => {
    expect(LIMITS.name).toEqual({ min: 2, max: 100 });
    expect(LIMITS.phone).toEqual({ min: 8, max: 20 });
    expect(LIMITS.message.max).toBe(1000);
    expect(LIMITS.email.max).toBe(254);
    expect(LIMITS.postcode.max).toBe(10);
    // Two name parts and a space stay within the name limit.
    expect(LIMITS.namePart.max * 2 + 1).toBeLessThanOrEqual(LIMITS.name.max);
  });
});

describe('validateEnquiryForm (contact and quote)', () => {
  it('accepts valid values, trimmed, with the email lowercased', () => {
    const result = validateEnquiryForm({
      name: '  Aroha Ngata ',
      email: '  Aroha@Example.CO.NZ ',
      phone: ' 021 555 0101 ',
      service: ' Windows ',
      message: '  Cracked pane  ',
    });
    expect(result).toEqual({
      ok: true,
      value: {
        name: 'Aroha Ngata',
        email: 'aroha@example.co.nz',
        phone: '021 555 0101',
        service: 'Windows',
        message: 'Cracked pane',
        urgent: false,
      },
    });
  });

  it.each(Object.keys(enquiry))('an empty %s asks for all required fields', (field) => {
    for (const empty of ['', '   ', undefined, null]) {
      const result = failure(validateEnquiryForm({ ...enquiry, [field]: empty }));
      expect(result.error).toBe(REQUIRED_FIELDS_MESSAGE);
      expect(result.fields).toEqual({ [field]: REQUIRED_FIELDS_MESSAGE });
    }
  });

  it('checks required fields before the email format', () => {
    const result = failure(validateEnquiryForm({ ...enquiry, email: 'not-an-email', message: '' }));
    expect(result.error).toBe(REQUIRED_FIELDS_MESSAGE);
    expect(result.fields).toEqual({
      email: INVALID_EMAIL_MESSAGE,
      message: REQUIRED_FIELDS_MESSAGE,
    });
  });

  it.each([
    'plainaddress',
    'no-dot@domain',
    'two words@example.com',
    'user@exa mple.com',
    '@example.com',
    'user@.com',
    'user@example.',
    'user@@example.com',
  ])('rejects the email %j', (email) => {
    const result = failure(validateEnquiryForm({ ...enquiry, email }));
    expect(result.error).toBe(INVALID_EMAIL_MESSAGE);
    expect(result.fields).toEqual({ email: INVALID_EMAIL_MESSAGE });
  });

  it.each(['a@b.c', 'first.last+tag@sub.example.co.nz', 'ÜSER@Exämple.NZ'])(
    'accepts the email %j',
    (email) => {
      const result = validateEnquiryForm({ ...enquiry, email });
      expect(result.ok).toBe(true);
      if (result.ok) expect(result.value.email).toBe(email.toLowerCase());
    },
  );

  it('limits the email to 254 characters', () => {
    const email = `${'a'.repeat(246)}@test.nz`;
    expect(email).toHaveLength(254);
    expect(validateEnquiryForm({ ...enquiry, email }).ok).toBe(true);
    const result = failure(validateEnquiryForm({ ...enquiry, email: `a${email}` }));
    expect(result.error).toBe(EMAIL_LENGTH_MESSAGE);
  });

  it('the e-mail pattern is text, at sign, text, dot, text, without spaces', () => {
    // The plain reading of the rule; it backtracks quadratically on long input,
    // so it only checks EMAIL_PATTERN on every short string of these characters.
    const spec = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
    let strings = [''];
    for (let length = 1; length <= 7; length += 1) {
      strings = strings.flatMap((text) => ['a', '@', '.', ' '].map((char) => text + char));
      for (const text of strings) expect(EMAIL_PATTERN.test(text), text).toBe(spec.test(text));
    }
    expect(EMAIL_PATTERN.test('aroha@example.co.nz')).toBe(true);
    expect(EMAIL_PATTERN.test('a@.b.c')).toBe(true);
    expect(EMAIL_PATTERN.test('a@b.')).toBe(false);
  });

  it('names are 2 to 100 characters', () => {
    expect(validateEnquiryForm({ ...enquiry, name: 'Al' }).ok).toBe(true);
    expect(validateEnquiryForm({ ...enquiry, name: 'x'.repeat(100) }).ok).toBe(true);
    for (const name of ['A', ' A ', 'x'.repeat(101), 'x'.repeat(50_000)]) {
      const result = failure(validateEnquiryForm({ ...enquiry, name }));
      expect(result.error).toBe(NAME_LENGTH_MESSAGE);
      expect(result.fields).toEqual({ name: NAME_LENGTH_MESSAGE });
    }
  });

  it('phones are 8 to 20 characters', () => {
    expect(validateEnquiryForm({ ...enquiry, phone: '12345678' }).ok).toBe(true);
    expect(validateEnquiryForm({ ...enquiry, phone: '+64 21 555 0101 0000' }).ok).toBe(true);
    for (const phone of ['1234567', 'x'.repeat(21)]) {
      expect(failure(validateEnquiryForm({ ...enquiry, phone })).error).toBe(PHONE_LENGTH_MESSAGE);
    }
  });

  it('messages are at most 1000 characters', () => {
    expect(validateEnquiryForm({ ...enquiry, message: 'm'.repeat(1000) }).ok).toBe(true);
    const result = failure(validateEnquiryForm({ ...enquiry, message: 'm'.repeat(1001) }));
    expect(result.error).toBe(MESSAGE_LENGTH_MESSAGE);
  });

  it('the service must be one of the nine options', () => {
    for (const service of SERVICE_OPTIONS) {
      expect(validateEnquiryForm({ ...enquiry, service }).ok).toBe(true);
    }
    for (const service of ['Home Glass', 'windows', 'Car Glass']) {
      const result = failure(validateEnquiryForm({ ...enquiry, service }));
      expect(result.error).toBe(SERVICE_CHOICE_MESSAGE);
      expect(result.fields).toEqual({ service: SERVICE_CHOICE_MESSAGE });
    }
  });

  it('treats wrong types as not filled in', () => {
    for (const value of [12345678, true, ['Aroha'], { text: 'x' }]) {
      const result = failure(validateEnquiryForm({ ...enquiry, name: value }));
      expect(result.error).toBe(REQUIRED_FIELDS_MESSAGE);
    }
  });

  it('rejects anything that is not an object', () => {
    for (const input of [undefined, null, 'text', 42, [], [enquiry]]) {
      expect(validateEnquiryForm(input)).toEqual({
        ok: false,
        error: REQUIRED_FIELDS_MESSAGE,
        fields: {},
      });
    }
  });

  it('reads FormData and URLSearchParams (form posts, with or without JavaScript)', () => {
    const form = new FormData();
    for (const [key, value] of Object.entries(enquiry)) form.append(key, value);
    form.append('name', 'second value is ignored');
    const value = { ...enquiry, urgent: false };
    expect(validateEnquiryForm(form)).toEqual({ ok: true, value });
    expect(validateEnquiryForm(new URLSearchParams(enquiry))).toEqual({ ok: true, value });
  });

  it('reports the first failing rule in field order when they rank the same', () => {
    const result = failure(validateEnquiryForm({ ...enquiry, name: 'A', phone: '1' }));
    expect(result.error).toBe(NAME_LENGTH_MESSAGE);
    expect(result.fields).toEqual({ name: NAME_LENGTH_MESSAGE, phone: PHONE_LENGTH_MESSAGE });
  });

  it('maps to a lead with the page as source', () => {
    const result = validateEnquiryForm(enquiry);
    if (!result.ok) throw new Error('valid');
    const mapped = enquiryToLead(result.value, 'quote_form');
    expect(mapped).toEqual({ ...enquiry, urgent: false, source: 'quote_form' });
    expect(validateLead(mapped).ok).toBe(true);
  });
});

describe('validateCallbackForm (home call-back)', () => {
  it('accepts valid values and maps them to a lead', () => {
    const result = validateCallbackForm({
      ...callback,
      firstName: ' Aroha ',
      lastName: ' Ngata ',
      email: ' AROHA@Example.co.nz ',
      optIn: 'on',
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    // The opt-in checkbox is never part of the values (docs/forms.md#home-call-back-form).
    expect(result.value).toEqual({
      ...callback,
      firstName: 'Aroha',
      lastName: 'Ngata',
      urgent: false,
    });
    const mapped = callbackToLead(result.value);
    expect(mapped).toEqual({
      name: 'Aroha Ngata',
      email: 'aroha@example.co.nz',
      phone: '021 555 0101',
      service: 'Business Glass',
      message: 'Service type: Business Glass. Postal code: 3110',
      source: 'hero_form',
      urgent: false,
    });
    expect(validateLead(mapped)).toEqual({ ok: true, value: mapped });
  });

  it('the service type defaults to Home Glass', () => {
    for (const serviceType of [undefined, '']) {
      const result = validateCallbackForm({ ...callback, serviceType });
      expect(result.ok && result.value.serviceType).toBe('Home Glass');
    }
  });

  it('the service type is exactly Home Glass or Business Glass', () => {
    const result = validateCallbackForm({ ...callback, serviceType: 'Windows' });
    expect(result).toEqual({
      ok: false,
      error: SERVICE_TYPE_CHOICE_MESSAGE,
      fields: { serviceType: SERVICE_TYPE_CHOICE_MESSAGE },
    });
  });

  it.each(['firstName', 'lastName', 'email', 'phone', 'postcode'])(
    'an empty %s asks for all required fields',
    (field) => {
      const result = validateCallbackForm({ ...callback, [field]: ' ' });
      expect(result).toEqual({
        ok: false,
        error: REQUIRED_FIELDS_MESSAGE,
        fields: { [field]: REQUIRED_FIELDS_MESSAGE },
      });
    },
  );

  it('checks the email pattern after required fields', () => {
    expect(validateCallbackForm({ ...callback, email: 'a@b' })).toEqual({
      ok: false,
      error: INVALID_EMAIL_MESSAGE,
      fields: { email: INVALID_EMAIL_MESSAGE },
    });
    const both = validateCallbackForm({ ...callback, email: 'a@b', postcode: '' });
    expect(!both.ok && both.error).toBe(REQUIRED_FIELDS_MESSAGE);
  });

  it('limits name parts, phone and postal code', () => {
    const cases: Array<[string, string, string]> = [
      ['firstName', 'x'.repeat(50), NAME_PART_LENGTH_MESSAGE],
      ['lastName', 'x'.repeat(50), NAME_PART_LENGTH_MESSAGE],
      ['phone', '1234567', PHONE_LENGTH_MESSAGE],
      ['postcode', '12345678901', POSTCODE_LENGTH_MESSAGE],
    ];
    for (const [field, value, message] of cases) {
      const result = validateCallbackForm({ ...callback, [field]: value });
      expect(result, field).toEqual({ ok: false, error: message, fields: { [field]: message } });
    }
    const longest = validateCallbackForm({
      ...callback,
      firstName: 'x'.repeat(49),
      lastName: 'y'.repeat(49),
      postcode: '1234567890',
    });
    expect(longest.ok).toBe(true);
    if (longest.ok) expect(validateLead(callbackToLead(longest.value)).ok).toBe(true);
  });
});

describe('validateLead (POST /api/leads)', () => {
  it('accepts a contact or quote lead with one of the nine services', () => {
    for (const source of ['contact_form', 'quote_form']) {
      expect(validateLead({ ...lead, source })).toEqual({
        ok: true,
        value: { ...enquiry, source, urgent: false },
      });
    }
  });

  it('accepts a hero lead only with Home Glass or Business Glass', () => {
    const hero = {
      ...lead,
      source: 'hero_form',
      service: 'Home Glass',
      message: 'Service type: Home Glass. Postal code: 3110',
    };
    expect(validateLead(hero).ok).toBe(true);
    expect(validateLead({ ...hero, service: 'Windows' })).toEqual({
      ok: false,
      error: SERVICE_TYPE_CHOICE_MESSAGE,
      fields: { service: SERVICE_TYPE_CHOICE_MESSAGE },
    });
    expect(validateLead({ ...lead, service: 'Home Glass' })).toEqual({
      ok: false,
      error: SERVICE_CHOICE_MESSAGE,
      fields: { service: SERVICE_CHOICE_MESSAGE },
    });
  });

  it('requires a known source', () => {
    expect(validateLead({ ...lead, source: undefined })).toEqual({
      ok: false,
      error: REQUIRED_FIELDS_MESSAGE,
      fields: { source: REQUIRED_FIELDS_MESSAGE },
    });
    expect(validateLead({ ...lead, source: 'admin' })).toEqual({
      ok: false,
      error: SOURCE_MESSAGE,
      fields: { source: SOURCE_MESSAGE },
    });
  });

  it('takes an optional idempotency key of 8-100 safe characters', () => {
    expect(validateLead({ ...lead, idempotency_key: 'abc_DEF-123' })).toEqual({
      ok: true,
      value: { ...enquiry, source: 'contact_form', idempotency_key: 'abc_DEF-123', urgent: false },
    });
    for (const empty of ['', null, undefined]) {
      const result = validateLead({ ...lead, idempotency_key: empty });
      expect(result.ok && result.value.idempotency_key).toBeUndefined();
    }
    expect(validateLead({ ...lead, idempotency_key: 'k'.repeat(100) }).ok).toBe(true);
    for (const key of ['short', 'k'.repeat(101), 'has space1', 'semi;colon', 12345678]) {
      expect(validateLead({ ...lead, idempotency_key: key })).toEqual({
        ok: false,
        error: IDEMPOTENCY_KEY_MESSAGE,
        fields: { idempotency_key: IDEMPOTENCY_KEY_MESSAGE },
      });
    }
  });

  it('passes the honeypot through for the service to judge, bounded in size', () => {
    const result = validateLead({ ...lead, [HONEYPOT_FIELD]: 'http://spam.example' });
    expect(result.ok && result.value[HONEYPOT_FIELD]).toBe('http://spam.example');
    expect(validateLead({ ...lead, [HONEYPOT_FIELD]: 'x'.repeat(2001) })).toEqual({
      ok: false,
      error: HONEYPOT_MESSAGE,
      fields: { [HONEYPOT_FIELD]: HONEYPOT_MESSAGE },
    });
  });

  it('length-limits every field whatever the body size', () => {
    const huge = 'x'.repeat(50_000);
    for (const field of ['name', 'email', 'phone', 'service', 'message', 'source']) {
      const result = validateLead({ ...lead, [field]: huge });
      expect(result.ok, field).toBe(false);
    }
  });

  it('drops unknown and prototype-polluting keys', () => {
    const input = JSON.parse(
      JSON.stringify({ ...lead, isAdmin: true }).replace('{', '{"__proto__":{"polluted":1},'),
    ) as unknown;
    const result = validateLead(input);
    expect(result).toEqual({
      ok: true,
      value: { ...enquiry, source: 'contact_form', urgent: false },
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('reports every failing field, with the first message in rule order as the error', () => {
    const result = failure(
      validateLead({ name: 'A', email: 'bad', phone: '', service: 'Nope', source: 'x' }),
    );
    expect(result.error).toBe(REQUIRED_FIELDS_MESSAGE);
    expect(result.fields).toEqual({
      name: NAME_LENGTH_MESSAGE,
      email: INVALID_EMAIL_MESSAGE,
      phone: REQUIRED_FIELDS_MESSAGE,
      message: REQUIRED_FIELDS_MESSAGE,
      source: SOURCE_MESSAGE,
    });
  });
});

describe('the urgent choice (docs/operations.md#urgent-enquiries)', () => {
  it('is named once, for the forms and the API', () => {
    expect([URGENT_FIELD, URGENT_VALUE, URGENT_LABEL]).toEqual([
      'urgent',
      'yes',
      'Glass broken now: I need it made safe',
    ]);
  });

  it('a form posting urgent=yes makes an urgent lead; without it, a lead that is not', () => {
    const ticked = validateEnquiryForm(new URLSearchParams({ ...enquiry, urgent: 'yes' }));
    if (!ticked.ok) throw new Error('valid');
    const lead = enquiryToLead(ticked.value, 'contact_form');
    expect(lead.urgent).toBe(true);
    expect(validateLead(lead)).toEqual({ ok: true, value: lead });
    const home = validateCallbackForm({ ...callback, urgent: 'yes' });
    if (!home.ok) throw new Error('valid');
    expect(callbackToLead(home.value).urgent).toBe(true);
    for (const absent of [undefined, null, '']) {
      const plain = validateEnquiryForm({ ...enquiry, urgent: absent });
      expect(plain.ok && plain.value.urgent).toBe(false);
      const plainHome = validateCallbackForm({ ...callback, urgent: absent });
      expect(plainHome.ok && plainHome.value.urgent).toBe(false);
    }
  });

  it('the API takes "yes" or true, and false or nothing for a lead that is not urgent', () => {
    for (const urgent of ['yes', true]) {
      const result = validateLead({ ...lead, urgent });
      expect(result.ok && result.value.urgent).toBe(true);
    }
    for (const urgent of [false, null, '', undefined]) {
      const result = validateLead({ ...lead, urgent });
      expect(result.ok && result.value.urgent).toBe(false);
    }
  });

  it.each([
    ['no'],
    ['on'],
    ['YES'],
    ['true'],
    [1],
    [0],
    [['yes']],
    [{ yes: true }],
    ['yes'.repeat(5000)],
  ])('refuses urgent = %j with a message naming the field', (urgent) => {
    for (const result of [
      failure(validateLead({ ...lead, urgent })),
      failure(validateEnquiryForm({ ...enquiry, urgent })),
      failure(validateCallbackForm({ ...callback, urgent })),
    ]) {
      expect(result.error).toBe(URGENT_MESSAGE);
      expect(result.fields).toEqual({ urgent: URGENT_MESSAGE });
    }
    expect(URGENT_MESSAGE).toContain('urgent');
  });
});

describe('control characters', () => {
  const controls = [
    '\u0000',
    '\u0007',
    '\u001b[31m',
    '\u007f',
    '\u0085',
    '\u202e',
    '\u2066',
    '\n',
    '\t',
  ];

  it('a single-line field with a control character gets that field’s message', () => {
    for (const control of controls) {
      const cases: Array<[string, string, string]> = [
        ['name', `Aroha${control}Ngata`, NAME_CHARACTERS_MESSAGE],
        ['phone', `021 555${control}0101`, PHONE_CHARACTERS_MESSAGE],
        ['email', `aroha${control}x@example.co.nz`, INVALID_EMAIL_MESSAGE],
      ];
      for (const [field, value, message] of cases) {
        const result = validateLead({ ...lead, [field]: value });
        expect(result, `${field} ${JSON.stringify(control)}`).toEqual({
          ok: false,
          error: message,
          fields: { [field]: message },
        });
      }
      for (const [field, message] of [
        ['firstName', NAME_CHARACTERS_MESSAGE],
        ['lastName', NAME_CHARACTERS_MESSAGE],
        ['postcode', POSTCODE_CHARACTERS_MESSAGE],
      ] as const) {
        const result = validateCallbackForm({ ...callback, [field]: `31${control}10` });
        expect(result, `${field} ${JSON.stringify(control)}`).toEqual({
          ok: false,
          error: message,
          fields: { [field]: message },
        });
      }
    }
  });

  it('whitespace at the ends is trimmed as before, not refused', () => {
    const result = validateLead({ ...lead, name: '\tAroha Ngata\n', phone: ' 021 555 0101\r\n' });
    expect(result.ok).toBe(true);
  });

  it('a message keeps its line breaks and tabs, but not other control characters', () => {
    expect(validateLead({ ...lead, message: 'Line one\r\nLine two\n\tindented' }).ok).toBe(true);
    for (const control of ['\u0000', '\u001b', '\u007f', '\u202e']) {
      expect(validateLead({ ...lead, message: `Cracked${control}pane` })).toEqual({
        ok: false,
        error: MESSAGE_CHARACTERS_MESSAGE,
        fields: { message: MESSAGE_CHARACTERS_MESSAGE },
      });
    }
  });

  it('every field refuses the C1 controls (CSI, OSC and the rest) with its own message', () => {
    for (let code = 0x80; code <= 0x9f; code += 1) {
      const control = String.fromCharCode(code);
      const label = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
      for (const [field, message] of [
        ['name', NAME_CHARACTERS_MESSAGE],
        ['email', INVALID_EMAIL_MESSAGE],
        ['phone', PHONE_CHARACTERS_MESSAGE],
        ['message', MESSAGE_CHARACTERS_MESSAGE],
      ] as const) {
        const value = `${lead[field].slice(0, 3)}${control}${lead[field].slice(3)}`;
        expect(validateLead({ ...lead, [field]: value }), `${field} ${label}`).toEqual({
          ok: false,
          error: message,
          fields: { [field]: message },
        });
        expect(validateEnquiryForm({ ...enquiry, [field]: value }).ok, `${field} ${label}`).toBe(
          false,
        );
      }
      const service = failure(validateLead({ ...lead, service: `Windows${control}` }));
      expect(service.fields, `service ${label}`).toEqual({ service: SERVICE_CHOICE_MESSAGE });
      for (const [field, message] of [
        ['firstName', NAME_CHARACTERS_MESSAGE],
        ['lastName', NAME_CHARACTERS_MESSAGE],
        ['postcode', POSTCODE_CHARACTERS_MESSAGE],
      ] as const) {
        const result = validateCallbackForm({ ...callback, [field]: `31${control}10` });
        expect(result, `${field} ${label}`).toEqual({
          ok: false,
          error: message,
          fields: { [field]: message },
        });
      }
    }
  });

  it('letters of every language stay welcome', () => {
    const result = validateLead({
      ...lead,
      name: 'Mārama Te Whare-Ōtaki 王 Zoë',
      message: 'Kia ora — ranchslider in Pāpāmoa 😀',
    });
    expect(result.ok).toBe(true);
  });
});

describe('where the enquiry came from (docs/operations.md#where-enquiries-come-from)', () => {
  const sent = {
    landing: '/?utm_source=google&utm_medium=cpc&gclid=Cj0KCQ',
    referrer: 'www.google.com',
    utm_source: 'google',
    utm_medium: 'cpc',
    utm_campaign: 'showers-tauranga',
    utm_term: 'shower glass',
    utm_content: 'ad 2',
    gclid: 'Cj0KCQ',
  };

  it('takes the eight fields, trimmed, each at most 200 characters', () => {
    const result = validateLead({ ...lead, ...sent, utm_term: '  shower glass ' });
    expect(result.ok && attributionOf(result.value)).toEqual(sent);
    const longest = { landing: `/${'a'.repeat(199)}`, gclid: 'g'.repeat(200) };
    const kept = validateLead({ ...lead, ...longest });
    expect(kept.ok && attributionOf(kept.value)).toEqual({ ...NO_ATTRIBUTION, ...longest });
    for (const field of ATTRIBUTION_FIELDS) {
      const value = field === 'landing' ? `/${'a'.repeat(200)}` : 'a'.repeat(201);
      expect(validateLead({ ...lead, [field]: value }), field).toEqual({
        ok: false,
        error: ATTRIBUTION_MESSAGE,
        fields: { [field]: ATTRIBUTION_MESSAGE },
      });
    }
  });

  it('empty, null or absent means not known: null on the lead', () => {
    const result = validateLead({ ...lead, landing: '', referrer: null, utm_source: '   ' });
    expect(result.ok && attributionOf(result.value)).toEqual(NO_ATTRIBUTION);
    expect(NO_ATTRIBUTION).toEqual(Object.fromEntries(ATTRIBUTION_FIELDS.map((f) => [f, null])));
  });

  it('refuses control characters and the bidirectional overrides in every field', () => {
    for (const control of ['\u0000', '\u001b[31m', '\u0085', '\u202e', '\u007f']) {
      for (const field of ATTRIBUTION_FIELDS) {
        const value = field === 'landing' ? `/x${control}y` : `x${control}y`;
        const result = failure(validateLead({ ...lead, [field]: value }));
        expect(result.fields, `${field} ${JSON.stringify(control)}`).toEqual({
          [field]: field === 'referrer' ? REFERRER_MESSAGE : ATTRIBUTION_MESSAGE,
        });
      }
    }
  });

  it('refuses the same characters as every single-line field', () => {
    expect(ATTRIBUTION_FORBIDDEN.source).toBe(SINGLE_LINE_FORBIDDEN.source);
  });

  it('refuses a value that is not text', () => {
    for (const value of [42, true, ['/'], { a: 1 }]) {
      expect(failure(validateLead({ ...lead, gclid: value })).fields).toEqual({
        gclid: ATTRIBUTION_MESSAGE,
      });
    }
  });

  it('landing is a path on this site, with its query', () => {
    for (const landing of ['/', '/quote', '/?utm_source=google', '/services/windows#top']) {
      const result = validateLead({ ...lead, landing });
      expect(result.ok && result.value.landing, landing).toBe(landing);
    }
    for (const landing of [
      'https://evil.example/',
      '//evil.example/x',
      'quote',
      '/a b',
      'javascript:alert(1)',
    ]) {
      expect(validateLead({ ...lead, landing }), landing).toEqual({
        ok: false,
        error: LANDING_MESSAGE,
        fields: { landing: LANDING_MESSAGE },
      });
    }
  });

  it('referrer is a bare host name, kept in lower case', () => {
    for (const [referrer, kept] of [
      ['www.google.com', 'www.google.com'],
      ['WWW.Bing.COM', 'www.bing.com'],
      ['localhost', 'localhost'],
      ['xn--mori-qsa.nz', 'xn--mori-qsa.nz'],
      ['com.google.android.gm', 'com.google.android.gm'],
    ]) {
      const result = validateLead({ ...lead, referrer });
      expect(result.ok && result.value.referrer, referrer).toBe(kept);
    }
    for (const referrer of [
      'https://www.google.com/',
      'www.google.com/search',
      'www.google.com:443',
      'a..b',
      '.example.com',
      'user@example.com',
      'two words',
    ]) {
      expect(validateLead({ ...lead, referrer }), referrer).toEqual({
        ok: false,
        error: REFERRER_MESSAGE,
        fields: { referrer: REFERRER_MESSAGE },
      });
    }
  });

  it('a form’s own fields are checked first, then the attribution', () => {
    const result = failure(validateLead({ ...lead, name: '', gclid: 'x'.repeat(201) }));
    expect(result.error).toBe(REQUIRED_FIELDS_MESSAGE);
    expect(result.fields).toEqual({ name: REQUIRED_FIELDS_MESSAGE, gclid: ATTRIBUTION_MESSAGE });
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { refreshPublishedContent, usePublishedContent } from './published.ts';
import { defaultBusiness } from './business.ts';
import { defaultFacts } from './facts.ts';
import { defaultOffers } from './offers.ts';
import {
  checkSiteContent,
  checkSiteContentSection,
  contentKey,
  defaultSiteContent,
  describeProblems,
  nzDate,
  visibleContent,
  type SiteContent,
  type SiteContentSection,
  type SiteOffer,
} from './site-content.ts';
import { defaultTestimonials } from './testimonials.ts';

const offer = (overrides: Partial<SiteOffer> = {}): SiteOffer => ({
  id: 1,
  title: 'Autumn Double Glazing',
  discount: '$150 off',
  validUntil: '2026-03-31',
  terms: 'Orders over $2,000.',
  ctaText: 'Get a Quote',
  ctaLink: '/quote',
  ...overrides,
});

const messages = (section: SiteContentSection, value: unknown) => {
  const result = checkSiteContentSection(section, value);
  return result.ok
    ? []
    : result.problems.map((problem) => `${problem.path.join('.')}: ${problem.message}`);
};

describe('the site content schema', () => {
  it('takes the shipped modules as the defaults, which pass it', () => {
    expect(checkSiteContent(defaultSiteContent)).toEqual({ ok: true, content: defaultSiteContent });
    expect(defaultSiteContent.identity.name).toBe(defaultBusiness.name);
    expect(defaultSiteContent.identity.privacyOfficer.email).toBe(
      defaultBusiness.privacyOfficer.email,
    );
    expect(defaultSiteContent.hours.emergency.responseTime).toBe(
      defaultBusiness.emergency.responseTime,
    );
    expect(defaultSiteContent.hours.facts.quoteValidity).toEqual({
      days: defaultFacts.quoteValidity.days,
      confirmed: false,
    });
    expect(defaultSiteContent.offers.map((o) => [o.title, o.validUntil])).toEqual(
      defaultOffers.map((o) => [
        o.title,
        `${o.validUntil.slice(6)}-${o.validUntil.slice(0, 2)}-${o.validUntil.slice(3, 5)}`,
      ]),
    );
    expect(defaultSiteContent.testimonials.map((t) => t.name)).toEqual(
      defaultTestimonials.map((t) => t.name),
    );
    expect(defaultSiteContent.notice).toBeNull();
    expect(defaultSiteContent.jobPhotos).toEqual([]);
  });

  it('works out the number to dial from the number shown, for new and older content', () => {
    const identity = defaultSiteContent.identity;
    const phoneOf = (phone: unknown) => {
      const checked = checkSiteContentSection('identity', { ...identity, phone });
      return checked.ok ? checked.content.phone : checked.problems.map((p) => p.message);
    };
    // Typed once: the form sends only the number as shown.
    expect(phoneOf({ display: '07 555 0777' })).toEqual({
      display: '07 555 0777',
      e164: '+6475550777',
    });
    expect(phoneOf({ display: '021 123 4567' })).toEqual({
      display: '021 123 4567',
      e164: '+64211234567',
    });
    // Saved before, the two disagreeing: the number visitors read is the one they dial.
    expect(phoneOf({ display: '07 555 0777', e164: '+6475550199' })).toEqual({
      display: '07 555 0777',
      e164: '+6475550777',
    });
    // Saved before, a number shown that gives no dialling form: the stored one still builds.
    expect(phoneOf({ display: '555 0777', e164: '+6475550777' })).toEqual({
      display: '555 0777',
      e164: '+6475550777',
    });
    // Neither: refused, saying why.
    expect(phoneOf({ display: '555 0777' })).toEqual([
      'Phone number: add the area code at the start, such as 07 578 2468',
    ]);
    expect(phoneOf({ display: '555 0777', e164: '075550777' })).toEqual([
      'Phone number: add the area code at the start, such as 07 578 2468',
    ]);
  });

  it('keeps the map of content saved before the map was set by a link', () => {
    const identity = defaultSiteContent.identity;
    const older = checkSiteContentSection('identity', identity);
    expect(older.ok && older.content).toMatchObject({
      geo: identity.geo,
      mapEmbedUrl: identity.mapEmbedUrl,
      mapLinkUrl: identity.mapLinkUrl,
    });
    const { geo: _geo, mapEmbedUrl: _embed, mapLinkUrl: _link, ...withoutMap } = identity;
    const byAddress = checkSiteContentSection('identity', withoutMap);
    expect(byAddress.ok && byAddress.content).toMatchObject({
      mapEmbedUrl:
        'https://www.google.com/maps?q=Unit%204%2C%2025%20Example%20Place%2C%20Tauriko%2C%20Tauranga%203110&output=embed',
    });
    expect(byAddress.ok && byAddress.content.geo).toBeUndefined();
    expect(messages('identity', { ...identity, map: 'https://maps.example.com/x' })).toEqual([
      'identity.map: Map: paste a link from Google Maps (find the business, tap Share, then Copy link), or type the address',
    ]);
  });

  it('takes a Google review page, on a Google address only', () => {
    const identity = defaultSiteContent.identity;
    for (const address of [
      'https://g.page/r/CbXyZ123/review',
      'https://search.google.com/local/writereview?placeid=ChIJ123',
      'https://www.google.com/maps/place/x',
      'https://www.google.co.nz/search?q=x',
    ]) {
      const checked = checkSiteContentSection('identity', {
        ...identity,
        googleReviewUrl: address,
      });
      expect(checked.ok && checked.content.googleReviewUrl).toBe(address);
    }
    const without = checkSiteContentSection('identity', identity);
    expect(without.ok && 'googleReviewUrl' in without.content).toBe(false);
    const refusal =
      'identity.googleReviewUrl: Google review page: the address Google gives for writing a review, such as https://g.page/r/…/review';
    for (const address of [
      'https://www.example.com/review',
      'https://google.com.evil.example/review',
      'https://evilgoogle.com/review',
    ]) {
      expect(messages('identity', { ...identity, googleReviewUrl: address })).toEqual([refusal]);
    }
    expect(messages('identity', { ...identity, googleReviewUrl: 'http://g.page/r/x' })).toEqual([
      'identity.googleReviewUrl: Google review page: a full web address starting with https://',
    ]);
  });

  it('names the field and says why, in each section', () => {
    const identity = defaultSiteContent.identity;
    expect(messages('identity', { ...identity, phone: { display: '07 578 246' } })).toEqual([
      'identity.phone.display: Phone number: a landline number is 0, the area code and seven digits, such as 07 578 2468',
    ]);
    expect(messages('identity', { ...identity, email: 'office at glass' })).toEqual([
      'identity.email: E-mail address: an e-mail address such as office@your-business.co.nz',
    ]);
    expect(
      messages('identity', { ...identity, mapEmbedUrl: 'https://maps.example.com/embed' }),
    ).toEqual([
      'identity.mapEmbedUrl: Embedded map address: a Google Maps embed address, starting with https://www.google.com/maps',
    ]);
    expect(
      messages('identity', {
        ...identity,
        social: { ...identity.social, facebook: 'http://facebook.com/x' },
      }),
    ).toEqual([
      'identity.social.facebook: Facebook page: a full web address starting with https://',
    ]);
    expect(messages('identity', { ...identity, name: '  ' })).toEqual([
      'identity.name: Business name: enter it',
    ]);
    const hours = defaultSiteContent.hours;
    expect(
      messages('hours', {
        ...hours,
        openingHours: [{ days: ['Monday'], opens: '17:00', closes: '08:00', label: 'Mon' }],
      }),
    ).toEqual(['hours.openingHours.0.closes: Closes at: later than the opening time']);
    expect(
      messages('hours', {
        ...hours,
        facts: { ...hours.facts, quoteValidity: { days: 0, confirmed: true } },
      }),
    ).toEqual(['hours.facts.quoteValidity.days: Days a quote stays valid: at least 1']);
  });

  it('offers: a real date, a page of the site or the phone, at most one featured', () => {
    expect(messages('offers', [offer({ validUntil: '31/03/2026' })])).toEqual([
      'offers.0.validUntil: Valid until: a date written YYYY-MM-DD, such as 2026-03-31',
    ]);
    expect(messages('offers', [offer({ validUntil: '2026-02-30' })])).toHaveLength(1);
    expect(messages('offers', [offer({ ctaLink: '//evil.example' as '/x' })])).toEqual([
      'offers.0.ctaLink: Button leads to: a page of this site, such as /quote, or the phone',
    ]);
    expect(
      messages('offers', [
        offer({ ctaLink: 'tel' }),
        offer({ id: 2, ctaLink: '/services/windows' }),
      ]),
    ).toEqual([]);
    expect(
      messages('offers', [offer({ featured: true }), offer({ id: 2, featured: true })]),
    ).toEqual(['offers: Featured: at most one offer can be featured']);
    expect(messages('offers', [offer(), offer()])).toEqual([
      'offers.1.id: Offer: two offers share one number',
    ]);
  });

  it('testimonials: a rating of 1 to 5, and the customer’s permission', () => {
    const review = {
      id: 1,
      name: 'Tama R.',
      role: 'Homeowner',
      location: 'Bethlehem',
      rating: 5,
      review: 'Quick, tidy and exactly the price they quoted.',
      permission: true,
    };
    expect(messages('testimonials', [review])).toEqual([]);
    expect(messages('testimonials', [{ ...review, permission: undefined }])).toEqual([
      'testimonials.0.permission: Permission: publish a review only once the customer has agreed to it; tick that they have',
    ]);
    expect(messages('testimonials', [{ ...review, permission: false }])).toHaveLength(1);
    expect(messages('testimonials', [{ ...review, rating: 6 }])).toEqual([
      'testimonials.0.rating: Rating: 1 to 5 stars',
    ]);
    // A review a customer sent through the site names its enquiry.
    const sent = { ...review, leadId: '6f1c7f0e-8a51-4c1f-9a0e-2f3b0d9e1a11' };
    expect(messages('testimonials', [sent])).toEqual([]);
    expect(messages('testimonials', [{ ...sent, leadId: 'lead 7' }])).toHaveLength(1);
  });

  it('the notice: plain text, one paragraph, 280 characters, the end not before the start', () => {
    const notice = { text: 'Closed 24 December to 5 January; emergency calls answered as usual.' };
    expect(messages('notice', null)).toEqual([]);
    expect(messages('notice', notice)).toEqual([]);
    expect(messages('notice', { text: '<b>Closed</b> for the holidays' })).toEqual([
      'notice.text: Notice: plain words only; it is shown exactly as written, so HTML tags would appear as typed',
    ]);
    // A comparison is words, not a tag.
    expect(messages('notice', { text: 'Orders < $500 and > $100 ship free' })).toEqual([]);
    expect(messages('notice', { text: 'Closed.\n\nBack soon.' })).toEqual([
      'notice.text: Notice: one line, without line breaks',
    ]);
    expect(messages('notice', { text: 'x'.repeat(281) })).toEqual([
      'notice.text: Notice: at most 280 characters',
    ]);
    expect(messages('notice', { ...notice, startsOn: '2026-12-24', endsOn: '2026-12-23' })).toEqual(
      ['notice.endsOn: Show until: on or after the day it starts'],
    );
    expect(messages('notice', { ...notice, startsOn: '2026-12-24', endsOn: '2026-12-24' })).toEqual(
      [],
    );
  });

  it('job photos: a service of the site and a description of 5 to 150 characters', () => {
    const photo = {
      photoId: '0d9c8f8e-3c1a-4b7e-9a55-2f6f1b2c3d4e',
      service: 'windows',
      alt: 'New double-glazed lounge window in a Bethlehem villa',
    };
    expect(messages('jobPhotos', [photo])).toEqual([]);
    expect(messages('jobPhotos', [{ ...photo, service: 'roofing' }])).toEqual([
      'jobPhotos.0.service: Service: choose the service the photo shows',
    ]);
    expect(messages('jobPhotos', [{ ...photo, alt: 'pic' }])).toEqual([
      'jobPhotos.0.alt: Description for screen readers: at least 5 characters saying what it shows',
    ]);
    expect(messages('jobPhotos', [{ ...photo, alt: 'x'.repeat(151) }])).toHaveLength(1);
    expect(messages('jobPhotos', [photo, photo])).toEqual([
      'jobPhotos.1.photoId: Photo: each photo once',
    ]);
  });

  it('refuses a whole content with a section missing or unknown, naming it', () => {
    const { notice: _notice, ...withoutNotice } = defaultSiteContent;
    const result = checkSiteContent({ ...withoutNotice, extra: 1 });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(describeProblems(result.problems)).toMatch(/^notice: /m);
      expect(describeProblems(result.problems)).toMatch(/extra/);
    }
  });
});

describe('what is visible at a time', () => {
  const content: SiteContent = {
    ...defaultSiteContent,
    offers: [
      offer({ id: 1, validUntil: '2026-03-31' }),
      offer({ id: 2, validUntil: '2026-04-30' }),
    ],
    notice: { text: 'Closed for Easter.', startsOn: '2026-04-03', endsOn: '2026-04-06' },
  };

  it('reads dates in New Zealand, daylight saving or not', () => {
    // 31 March 2026, 23:59 NZDT (UTC+13) and then 1 April, 00:00.
    expect(nzDate(new Date('2026-03-31T10:59:00Z'))).toBe('2026-03-31');
    expect(nzDate(new Date('2026-03-31T11:00:00Z'))).toBe('2026-04-01');
    // 30 June, 23:59 NZST (UTC+12), and 1 July.
    expect(nzDate(new Date('2026-06-30T11:59:00Z'))).toBe('2026-06-30');
    expect(nzDate(new Date('2026-06-30T12:00:00Z'))).toBe('2026-07-01');
  });

  it('drops an offer after its last day and a notice outside its dates', () => {
    const ids = (now: string) => visibleContent(content, new Date(now)).offers.map((o) => o.id);
    expect(ids('2026-03-31T10:59:00Z')).toEqual([1, 2]);
    expect(ids('2026-03-31T11:00:00Z')).toEqual([2]);
    expect(ids('2026-05-01T00:00:00Z')).toEqual([]);

    const notice = (now: string) => visibleContent(content, new Date(now)).notice;
    expect(notice('2026-04-02T10:59:00Z')).toBeNull(); // 2 April, 23:59 NZDT
    expect(notice('2026-04-02T11:00:00Z')).toEqual(content.notice); // 3 April
    expect(notice('2026-04-06T11:59:00Z')).toEqual(content.notice); // 6 April, 23:59 NZST
    expect(notice('2026-04-06T12:00:00Z')).toBeNull();
    // Without dates, always.
    const always = { ...content, notice: { text: 'Now hiring.' } };
    expect(visibleContent(always, new Date('2030-01-01')).notice).toEqual(always.notice);
  });

  it('keeps the shipped sample offers, which the home page marks as ended', () => {
    const now = new Date('2030-01-01T00:00:00Z');
    expect(visibleContent(defaultSiteContent, now).offers).toEqual(defaultSiteContent.offers);
  });

  it('has a key that changes exactly when what is visible changes', () => {
    const times = [
      '2026-03-01T00:00:00Z',
      '2026-03-31T10:59:00Z',
      '2026-03-31T11:00:00Z', // offer 1 ends
      '2026-04-02T10:59:00Z',
      '2026-04-02T11:00:00Z', // the notice starts
      '2026-04-06T11:59:00Z',
      '2026-04-06T12:00:00Z', // the notice ends
      '2026-04-30T11:59:00Z',
      '2026-04-30T12:00:00Z', // offer 2 ends
      '2027-01-01T00:00:00Z',
    ];
    const keys = times.map((time) => contentKey(3, content, new Date(time)));
    const visible = times.map((time) => JSON.stringify(visibleContent(content, new Date(time))));
    for (let index = 1; index < times.length; index++) {
      expect(keys[index] === keys[index - 1]).toBe(visible[index] === visible[index - 1]);
    }
    expect(keys).toEqual([
      'v3',
      'v3',
      'v3-ended.1',
      'v3-ended.1',
      'v3-notice-ended.1',
      'v3-notice-ended.1',
      'v3-ended.1',
      'v3-ended.1',
      'v3-ended.1.2',
      'v3-ended.1.2',
    ]);
    expect(contentKey(4, content, new Date(times[0]!))).toBe('v4');
  });
});

describe('the modules of app/content state the content put in place', () => {
  afterEach(() => {
    usePublishedContent(null);
    refreshPublishedContent();
  });

  it('without one (Node, the server, the CLIs), the shipped defaults', async () => {
    const { business } = await import('./business.ts');
    const { offers } = await import('./offers.ts');
    expect(business).toEqual(defaultBusiness);
    expect(offers).toEqual(defaultOffers);
  });

  it('with one, its identity, hours, facts, offers and reviews, on every page that states them', async () => {
    const published: SiteContent = {
      ...defaultSiteContent,
      identity: {
        ...defaultSiteContent.identity,
        name: 'Kōwhai Glass',
        phone: { display: '07 578 2468', e164: '+6475782468' },
        googleReviewUrl: 'https://g.page/r/CbKowhai/review',
        privacyOfficer: {
          role: 'Privacy Officer',
          name: 'Ana Kōwhai',
          email: 'privacy@kowhaiglass.co.nz',
        },
      },
      hours: {
        ...defaultSiteContent.hours,
        emergency: { ...defaultSiteContent.hours.emergency, hours: '7 days, 6am to 10pm' },
        facts: {
          ...defaultSiteContent.hours.facts,
          quoteValidity: { days: 60, confirmed: true },
        },
      },
      offers: [offer({ validUntil: '2026-05-31' })],
      testimonials: [
        {
          id: 9,
          name: 'Tama R.',
          role: 'Homeowner',
          location: 'Bethlehem',
          rating: 4,
          review: 'Quick and tidy.',
          permission: true,
          // A review a customer sent: its enquiry is the owner's record, never shown.
          leadId: '6f1c7f0e-8a51-4c1f-9a0e-2f3b0d9e1a11',
        },
      ],
    };
    // Loaded before the content is in place, as a server's modules are
    // loaded once and then serve one publication after another.
    const modules = {
      business: await import('./business.ts'),
      home: await import('./home.ts'),
      about: await import('./about.ts'),
      services: await import('./services.ts'),
      legal: await import('./legal.ts'),
      pageMeta: await import('../layouts/page-meta.ts'),
    };
    expect(modules.business.business.name).toBe(defaultBusiness.name);
    usePublishedContent({ version: 7, content: published });
    // Nothing changes until a page is about to render (app/middleware.ts).
    expect(modules.business.business.name).toBe(defaultBusiness.name);
    refreshPublishedContent();

    const { business, telHref, placeholderBusiness } = modules.business;
    expect(business.name).toBe('Kōwhai Glass');
    // What a customer's review page links to after they send theirs.
    expect(business.googleReviewUrl).toBe('https://g.page/r/CbKowhai/review');
    expect(defaultBusiness).not.toHaveProperty('googleReviewUrl');
    expect(business.address.country).toBe('NZ');
    expect(business.emergency).toMatchObject({ available: true, hours: '7 days, 6am to 10pm' });
    expect(telHref).toBe('tel:+6475782468');
    expect(placeholderBusiness.name).toBe(defaultBusiness.name);

    const { facts, articleFacts, unconfirmedFacts } = await import('./facts.ts');
    expect(facts.quoteValidity).toMatchObject({ days: 60, confirmed: true });
    expect(unconfirmedFacts().map((fact) => fact.key)).not.toContain('quoteValidity');
    expect(articleFacts.emergencyHours).toBe('7 days, 6am to 10pm');

    const { offers } = await import('./offers.ts');
    expect(offers).toEqual([{ ...offer(), validUntil: '05/31/2026' }]);
    const { testimonials } = await import('./testimonials.ts');
    expect(testimonials).toEqual([
      {
        id: 9,
        name: 'Tama R.',
        role: 'Homeowner',
        location: 'Bethlehem',
        rating: 4,
        review: 'Quick and tidy.',
        avatar: null,
      },
    ]);

    // The privacy policy names the Privacy Officer and the JSON-LD the business.
    const { privacyPolicyFor } = await import('./legal.ts');
    expect(JSON.stringify(privacyPolicyFor({ leadRetentionDays: 730 }))).toContain(
      'privacy@kowhaiglass.co.nz',
    );
    const { localBusinessJsonLd } = await import('../layouts/json-ld.ts');
    expect(JSON.stringify(localBusinessJsonLd())).toContain('"telephone":"+6475782468"');

    // The sentences made of the identity, in the modules loaded before it.
    expect(modules.home.home.finalBanner.phoneLinkText).toBe('Call 07 578 2468');
    expect(modules.about.about.heading).toBe('About Kōwhai Glass');
    expect(modules.legal.terms.intro).toContain('“Kōwhai Glass”');
    expect(modules.legal.sitemapIntro).toContain('Kōwhai Glass website');
    expect(modules.pageMeta.defaultShareImage.alt).toMatch(/^Kōwhai Glass:/);
    expect(JSON.stringify(modules.services.services)).toContain('7 days, 6am to 10pm');

    // The next publication replaces it; none at all brings the defaults back.
    usePublishedContent({
      version: 8,
      content: { ...published, identity: { ...published.identity, name: 'Rātā Glass' } },
    });
    refreshPublishedContent();
    expect(modules.about.about.heading).toBe('About Rātā Glass');
    usePublishedContent(null);
    refreshPublishedContent();
    expect(modules.business.business).toEqual(defaultBusiness);
    expect(modules.home.home.finalBanner.phoneLinkText).toBe(
      `Call ${defaultBusiness.phone.display}`,
    );
  });
});

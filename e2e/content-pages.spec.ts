import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { about } from '../app/content/about.ts';
import { business, fullAddress } from '../app/content/business.ts';
import { performaTech, planitherm } from '../app/content/glass-types.ts';
import { privacyPolicyFor, sitemapIntro, terms } from '../app/content/legal.ts';
import { DEFAULT_LEAD_RETENTION_DAYS } from '../app/leads/retention.ts';
import { E2E_BUILD_ENV } from './support/env.ts';
import { ready } from './support/pages.ts';

/**
 * The two glass type pages, About (FAQ accordion and
 * its structured data), Contact, the place of the quote form, the privacy
 * policy, the terms and the HTML sitemap.
 */

const SITE = E2E_BUILD_ENV.SITE_URL;

test.beforeEach(async ({ page }) => {
  // The maps host is unreachable here; the pages must not depend on it.
  await page.route('https://www.google.com/**', (route) => route.abort());
});

async function jsonLd(request: APIRequestContext, path: string) {
  const html = await (await request.get(path)).text();
  return [...html.matchAll(/<script type="application\/ld\+json">([^<]+)<\/script>/g)].map(
    (match) => JSON.parse(match[1]!) as Record<string, unknown>,
  );
}

/** The h2 headings of the main content, in order. */
async function sectionHeadings(page: Page) {
  return (await page.locator('main h2').allInnerTexts()).map((text) => text.trim());
}

test.describe('PerformaTech 206', () => {
  test('every section in order, with the figures', async ({ page }) => {
    await page.goto('/glass-types/performatech');
    const main = page.locator('main');
    await expect(main.getByRole('heading', { level: 1 })).toHaveText(performaTech.title);
    expect(await sectionHeadings(page)).toEqual(
      expect.arrayContaining([
        'What is PerformaTech 206?',
        'Applications',
        'Key Benefits',
        'Range & Sizes',
        'Sanctuary Premium Option',
      ]),
    );
    const headings = await sectionHeadings(page);
    const order = [
      'What is PerformaTech 206?',
      'Applications',
      'Key Benefits',
      'Range & Sizes',
      'Sanctuary Premium Option',
    ].map((heading) => headings.indexOf(heading));
    expect([...order].sort((a, b) => a - b)).toEqual(order);

    const applications = main.locator('section', { has: page.locator('#applications') });
    await expect(applications.getByRole('heading', { level: 3 })).toHaveText([
      'Windows',
      'Facades',
      'Overhead Glazing',
    ]);

    const benefits = main.locator('section', { has: page.locator('#key-benefits') });
    await expect(benefits.getByRole('listitem')).toHaveCount(9);
    await expect(benefits.getByRole('heading', { level: 3 })).toHaveText(
      performaTech.keyBenefits.items.map((item) => item.title),
    );

    // Range & Sizes: a table, row by row.
    const table = main.getByRole('table');
    const rows = table.locator('tbody tr');
    await expect(rows).toHaveCount(4);
    const cells = await rows.evaluateAll((trs) =>
      trs.map((tr) => [
        tr.querySelector('th')?.textContent ?? '',
        tr.querySelector('td')?.textContent ?? '',
      ]),
    );
    expect(cells).toEqual([
      ['Light transmission', '70%'],
      ['Shading coefficient', '0.38'],
      ['U-value', '1.0 W/m²K'],
      ['Maximum size', '3000mm x 2500mm'],
    ]);

    const sanctuary = main.locator('section', { has: page.locator('#sanctuary') });
    await expect(sanctuary.getByRole('heading', { level: 3 })).toHaveText([
      'Building Security',
      'Acoustic Insulation',
      'Visual Clarity',
    ]);

    await expect(main.getByText('70% light transmission')).toBeVisible();
    for (const link of await main.getByRole('link', { name: 'Get a Free Quote' }).all()) {
      await expect(link).toHaveAttribute('href', '/quote');
    }
    expect(await main.getByRole('link', { name: 'Get a Free Quote' }).count()).toBeGreaterThan(0);
  });

  test('the range table stays readable on a phone', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await ready(page, '/glass-types/performatech');
    await expect(page.getByRole('cell', { name: '3000mm x 2500mm' })).toBeVisible();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
  });
});

test.describe('Planitherm XN', () => {
  test('benefit cards 52%, 81%, reduced condensation; up to 59% less heat loss; applications; why we use it', async ({
    page,
  }) => {
    await page.goto('/glass-types/planitherm');
    const main = page.locator('main');
    await expect(main.getByRole('heading', { level: 1 })).toHaveText(planitherm.title);
    const cards = main.locator('.figure-card');
    await expect(cards).toHaveCount(3);
    await expect(cards.locator('.figure-card__figure')).toHaveText(['52%', '81%', 'Drier']);
    await expect(cards.getByRole('heading', { level: 3 })).toHaveText([
      'Energy Savings',
      'Light Transmission',
      'Reduced Condensation',
    ]);
    await expect(main.locator('.figure-banner')).toContainText('59%');
    await expect(main.locator('.figure-banner')).toContainText('Up to 59% less heat loss');
    const applications = main.locator('section', { has: page.locator('#applications') });
    await expect(applications.getByRole('heading', { level: 3 })).toHaveText([
      'Living Spaces',
      'Windows and Skylights',
      'Doors',
      'Conservatories',
    ]);
    await expect(main.getByRole('heading', { name: 'Why We Use Planitherm XN' })).toBeVisible();
    await expect(main.getByText('52% energy savings', { exact: true })).toBeVisible();
    await expect(main.getByText('81% light transmission', { exact: true })).toBeVisible();
    await expect(main.getByRole('link', { name: 'Get a Free Quote' }).first()).toHaveAttribute(
      'href',
      '/quote',
    );
  });

  test('a failed glass type picture shows the labelled placeholder', async ({ page }) => {
    await page.route('**/images/glass-types/planitherm.svg', (route) =>
      route.fulfill({ status: 404 }),
    );
    await ready(page, '/glass-types/planitherm');
    await expect(page.locator('main .illustration--fallback')).toHaveText('Image not available');
  });
});

test.describe('About', () => {
  test('intro, specialties, five why-choose-us cards, phone and quote links; Organization and FAQPage JSON-LD', async ({
    page,
    request,
  }) => {
    await page.goto('/about');
    const main = page.locator('main');
    await expect(main.getByRole('heading', { level: 1 })).toHaveText(about.heading);
    for (const paragraph of about.intro) await expect(main.getByText(paragraph)).toBeVisible();
    const specialties = main.locator('section', { has: page.locator('#specialties') });
    for (const specialty of about.specialties) {
      await expect(specialties.getByText(specialty, { exact: true })).toBeVisible();
    }
    await expect(main.getByText('15+', { exact: true })).toBeVisible();
    await expect(main.getByText('5.0', { exact: true })).toBeVisible();
    const why = main.locator('section', { has: page.locator('#why-choose-us') });
    await expect(why.getByRole('heading', { level: 3 })).toHaveText(
      about.whyChooseUs.map((card) => card.title),
    );
    await expect(main.getByRole('link', { name: 'Get a Free Quote' }).first()).toHaveAttribute(
      'href',
      '/quote',
    );
    await expect(main.locator(`a[href="tel:${business.phone.e164}"]`).first()).toBeVisible();

    // The page's structured data, against what this load of it shows.
    await test.step('Organization and FAQPage JSON-LD match what the page shows', async () => {
      const blocks = await jsonLd(request, '/about');
      const organization = blocks.find((block) => block['@type'] === 'Organization');
      expect(organization).toMatchObject({
        '@context': 'https://schema.org',
        name: business.name,
        legalName: business.legalName,
        url: `${SITE}/`,
        telephone: business.phone.e164,
        email: business.email,
        foundingDate: String(business.foundedYear),
        address: {
          '@type': 'PostalAddress',
          streetAddress: business.address.street,
          addressLocality: business.address.city,
          postalCode: business.address.postcode,
          addressCountry: 'NZ',
        },
      });
      const faqPage = blocks.find((block) => block['@type'] === 'FAQPage');
      expect(faqPage).toBeDefined();
      const entities = faqPage!.mainEntity as {
        '@type': string;
        name: string;
        acceptedAnswer: { '@type': string; text: string };
      }[];

      const shown = await page.locator('.faq__item').evaluateAll((items) =>
        items.map((item) => ({
          question: item.querySelector('summary')?.textContent?.trim() ?? '',
          answer: item.querySelector('.faq__answer')?.textContent?.trim() ?? '',
        })),
      );
      expect(shown).toHaveLength(9);
      expect(
        entities.map((entity) => ({ question: entity.name, answer: entity.acceptedAnswer.text })),
      ).toEqual(shown);
      for (const entity of entities) {
        expect(entity['@type']).toBe('Question');
        expect(entity.acceptedAnswer['@type']).toBe('Answer');
        expect(entity.acceptedAnswer.text).not.toMatch(/<[a-z]/i);
      }
    });
  });

  test('FAQ accordion: none open, then at most one; clicking the open one closes it', async ({
    page,
  }) => {
    await page.goto('/about');
    const questions = page.locator('.faq__question');
    await expect(questions).toHaveCount(about.faq.length);
    const openItems = page.locator('.faq__item[open]');
    await expect(openItems).toHaveCount(0);
    const answer = (index: number) =>
      page.locator('.faq__item').nth(index).getByText(about.faq[index]!.answer);

    await questions.nth(0).click();
    await expect(openItems).toHaveCount(1);
    await expect(answer(0)).toBeVisible();
    await expect(questions.nth(0)).toHaveAccessibleName(about.faq[0]!.question);

    // Opening another switches to it.
    await questions.nth(3).click();
    await expect(openItems).toHaveCount(1);
    await expect(answer(3)).toBeVisible();
    await expect(answer(0)).toBeHidden();

    // Clicking the open one closes it: none open again.
    await questions.nth(3).click();
    await expect(openItems).toHaveCount(0);

    // Keyboard works too.
    await questions.nth(5).focus();
    await page.keyboard.press('Enter');
    await expect(answer(5)).toBeVisible();
    await page.keyboard.press('Space');
    await expect(openItems).toHaveCount(0);
  });
});

test.describe('Contact and quote', () => {
  test('contact details, service hours, the map and the place of the form', async ({ page }) => {
    await ready(page, '/contact');
    const main = page.locator('main');
    await expect(main.getByRole('heading', { level: 1 })).toHaveText('Contact Us');
    await expect(main.getByRole('link', { name: business.phone.display }).first()).toHaveAttribute(
      'href',
      `tel:${business.phone.e164}`,
    );
    await expect(main.getByRole('link', { name: business.email })).toHaveAttribute(
      'href',
      `mailto:${business.email}`,
    );
    await expect(main.getByText(fullAddress)).toBeVisible();
    await expect(main.getByText(fullAddress)).toContainText('Tauriko, Tauranga 3110');
    const hours = main.locator('.hours-list li');
    await expect(hours).toHaveText(['Mon-Fri 7AM-6PM', 'Sat 8AM-4PM', '24/7 emergency service']);

    // The map: a preview that becomes the live map on request, even offline.
    await main.getByRole('button', { name: 'Show interactive map' }).click();
    await expect(main.locator('iframe')).toHaveAttribute('src', business.mapEmbedUrl);
    await expect(main.getByRole('link', { name: /Open in Google Maps/ })).toHaveAttribute(
      'href',
      business.mapLinkUrl,
    );

    const formPlace = page.locator('#quote-form-section');
    await expect(formPlace.getByRole('heading', { level: 2 })).toHaveText('Request a Free Quote');
    await expect(formPlace.getByRole('link', { name: business.phone.display })).toHaveAttribute(
      'href',
      `tel:${business.phone.e164}`,
    );
    // Everything still works after the maps host failed.
    await expect(main.getByRole('heading', { level: 1 })).toBeVisible();
  });

  test('the quote page has its header and the place of the form', async ({ page }) => {
    await page.goto('/quote');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const formPlace = page.locator('#quote-form-section');
    await expect(formPlace.getByRole('heading', { level: 2 })).toHaveText('Request a Free Quote');
    await expect(formPlace.locator('a[href^="tel:"]')).toHaveText(business.phone.display);
  });
});

test.describe('legal pages and sitemap', () => {
  for (const { path, document } of [
    // The e2e build leaves LEAD_RETENTION_DAYS at its default.
    {
      path: '/privacy-policy',
      document: privacyPolicyFor({ leadRetentionDays: DEFAULT_LEAD_RETENTION_DAYS }),
    },
    { path: '/terms', document: terms },
  ]) {
    test(`${path}: every section heading in order, the date and the contact details`, async ({
      page,
    }) => {
      await ready(page, path);
      const main = page.locator('main');
      await expect(main.getByRole('heading', { level: 1 })).toHaveText(document.title);
      await expect(main.locator('article > section:not(.legal-contact) > h2')).toHaveText(
        document.sections.map((section) => section.heading),
      );
      await expect(main.locator('time')).toHaveAttribute('datetime', document.lastUpdated);
      await expect(main.locator('time')).toHaveText(
        new Intl.DateTimeFormat('en-NZ', {
          day: 'numeric',
          month: 'long',
          year: 'numeric',
          timeZone: 'UTC',
        }).format(new Date(document.lastUpdated)),
      );
      await expect(main.locator('.legal-updated')).toContainText('Last updated');
      const contact = main.locator('.legal-contact');
      await expect(contact).toContainText(fullAddress);
      await expect(contact.getByRole('link', { name: business.email })).toBeVisible();
      await expect(contact.getByRole('link', { name: business.phone.display })).toBeVisible();

      // The table of contents jumps to a section without going back to the top.
      const last = document.sections.at(-1)!.heading;
      await main
        .getByRole('navigation', { name: 'On this page' })
        .getByRole('link', { name: last })
        .click();
      await expect(main.getByRole('heading', { name: last, level: 2 })).toBeInViewport();
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(400);
    });
  }

  test('the privacy policy covers the Privacy Act 2020, where enquiries go, analytics, retention and access', async ({
    page,
  }) => {
    await page.goto('/privacy-policy');
    const main = page.locator('main');
    for (const text of [
      'Privacy Act 2020',
      'passed on to the business by e-mail or its enquiry-management service',
      'for ten minutes, to limit how many enquiries one address can send',
      'Google Analytics',
      'How long we keep it',
      'Seeing and correcting your information',
      'information privacy principles 6 and 7',
      'Office of the Privacy Commissioner',
    ]) {
      await expect(main.getByText(text).first()).toBeAttached();
    }
    // The retention the server applies, from LEAD_RETENTION_DAYS.
    await expect(
      main.getByText(
        'Enquiries sent through this website are deleted from our lead database 730 days (24 months) after they were sent, whether or not they led to a job.',
      ),
    ).toBeVisible();
    // The Privacy Officer (business.ts), with the address requests go to.
    const { role, email } = business.privacyOfficer;
    await expect(main.getByRole('heading', { name: `Our ${role}`, level: 2 })).toBeVisible();
    await expect(
      main.locator('section', { has: page.getByRole('heading', { name: `Our ${role}` }) }),
    ).toContainText(email);
    await expect(main.getByText(`To make a request, e-mail our ${role} at ${email}`)).toBeVisible();
  });

  test('the terms explain the Consumer Guarantees Act and the Building Act warranties in plain words', async ({
    page,
  }) => {
    // Prerendered copy: no need to wait for the page's JavaScript.
    await page.goto('/terms');
    const rights = page.locator('main section', {
      has: page.getByRole('heading', { name: 'Your rights under New Zealand law' }),
    });
    await expect(rights.getByRole('listitem')).toHaveCount(3);
    await expect(rights).toContainText(
      'Consumer Guarantees Act 1993: the services we provide must be carried out with reasonable care and skill',
    );
    await expect(rights).toContainText(
      'Building Act 2004: when we carry out building work on a home',
    );
    await expect(rights).toContainText('(section 362I)');
    await expect(rights).toContainText('up to 10 years after the work was done');
    await expect(rights).toContainText('not legal advice');
  });

  test('the sitemap page has its intro and every group', async ({ page }) => {
    await page.goto('/sitemap');
    await expect(page.locator('main').getByText(sitemapIntro)).toBeVisible();
    await expect(page.locator('main h2')).toHaveText([
      'Main pages',
      'Services',
      'Glass types',
      'Blog',
      'About this site',
    ]);
    await expect(
      page.locator('main').getByRole('link', { name: 'PerformaTech Glass' }),
    ).toHaveAttribute('href', '/glass-types/performatech');
  });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('FAQ answers open natively, one at a time', async ({ page }) => {
    await page.goto('/about');
    const questions = page.locator('.faq__question');
    await questions.nth(1).click();
    await expect(page.getByText(about.faq[1]!.answer)).toBeVisible();
    await questions.nth(2).click();
    await expect(page.getByText(about.faq[2]!.answer)).toBeVisible();
    await expect(page.getByText(about.faq[1]!.answer)).toBeHidden();
  });
});

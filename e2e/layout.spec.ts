import { expect, test } from '@playwright/test';
import { axe } from './support/axe.ts';
import { settled } from './support/settle.ts';
import { PAGE_PATHS, ready } from './support/pages.ts';

test.describe('desktop navigation (1280 px)', () => {
  test('links in the documented order, with Call Us', async ({ page }) => {
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'Home', exact: true })).toBeVisible();
    const labels = await nav.locator('.main-nav__list > li > :first-child').allInnerTexts();
    expect(labels.map((label) => label.trim())).toEqual([
      'Home',
      'Services',
      'Glass Types',
      'Blog',
      'About Us',
      'Contact',
    ]);
    await expect(nav.getByRole('link', { name: /Call Us/ })).toHaveAttribute('href', /^tel:\+64/);
  });

  test('the two dropdowns toggle independently and close on outside click and Escape; an open one passes axe', async ({
    page,
  }) => {
    await ready(page, '/');
    const services = page.getByRole('button', { name: 'Services menu' });
    const glass = page.getByRole('button', { name: 'Glass Types' });
    const servicesMenu = page.locator(`#${await services.getAttribute('aria-controls')}`);
    const glassMenu = page.locator(`#${await glass.getAttribute('aria-controls')}`);

    await services.click();
    await expect(services).toHaveAttribute('aria-expanded', 'true');
    await expect(servicesMenu.getByRole('link')).toHaveCount(9);
    await expect(glassMenu).toBeHidden();

    await glass.click();
    await expect(glass).toHaveAttribute('aria-expanded', 'true');
    await expect(glassMenu.getByRole('link')).toHaveText([
      'PerformaTech Glass',
      'Planitherm Glass',
    ]);
    await glass.click();
    await expect(glassMenu).toBeHidden();
    await expect(glass).toHaveAttribute('aria-expanded', 'false');

    await services.click();
    await page.mouse.click(640, 600);
    await expect(servicesMenu).toBeHidden();

    await services.focus();
    await page.keyboard.press('Enter');
    await expect(servicesMenu).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(servicesMenu).toBeHidden();
    await expect(services).toBeFocused();

    // Each page's own axe run is in route-budget-and-axe.spec.ts, with its
    // menus closed; an open dropdown is checked here, on this test's page.
    await test.step('an open dropdown passes axe too', async () => {
      await services.click();
      await expect(servicesMenu).toBeVisible();
      expect((await axe(page)).violations).toEqual([]);
    });
  });

  test('the active link is highlighted by path prefix', async ({ page }) => {
    await page.goto('/services/windows');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'Services', exact: true })).toHaveClass(/is-active/);
    await expect(nav.getByRole('link', { name: 'Home', exact: true })).not.toHaveClass(/is-active/);
    await page.goto('/glass-types/planitherm');
    await expect(page.getByRole('button', { name: 'Glass Types' })).toHaveClass(/is-active/);
    await page.goto('/blog/category/windows');
    await expect(nav.getByRole('link', { name: 'Blog', exact: true })).toHaveClass(/is-active/);
  });

  test('keyboard: skip link, then every menu item reachable with Tab', async ({ page }) => {
    await ready(page, '/');
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to main content' });
    await expect(skip).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.locator('#main')).toBeFocused();
  });

  test('the footer has every documented item and the current year', async ({ page }) => {
    await ready(page, '/');
    const footer = page.locator('footer');
    for (const name of ['Quick Links', 'Services', 'Glass Types', 'Contact']) {
      await expect(footer.getByRole('heading', { name, exact: true })).toBeVisible();
    }
    await expect(footer).toContainText('Tauriko');
    await expect(footer).toContainText('24/7 Available');
    await expect(footer.getByRole('link', { name: /@/ })).toHaveAttribute('href', /^mailto:/);
    await expect(footer.locator('a[href^="tel:"]')).toHaveCount(1);
    await expect(footer.getByRole('link', { name: /Facebook/ })).toBeVisible();
    await expect(footer.getByRole('link', { name: /Instagram/ })).toBeVisible();
    await expect(footer.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute(
      'href',
      '/privacy-policy',
    );
    await expect(footer.getByRole('link', { name: 'Terms' })).toHaveAttribute('href', '/terms');
    await expect(footer.getByRole('link', { name: 'Sitemap' })).toHaveAttribute('href', '/sitemap');
    await expect(footer).toContainText(`© ${new Date().getFullYear()}`);
    for (const path of ['/privacy-policy', '/terms', '/sitemap']) {
      const heading = page.getByRole('heading', { level: 1 });
      const before = await heading.textContent();
      await footer.locator(`a[href="${path}"]`).click();
      await expect(page).toHaveURL(new RegExp(`${path}$`));
      // The next page has loaded, not only its address.
      await expect(heading).not.toHaveText(before ?? '');
    }
  });

  test.describe("in Tauranga on New Year's Day", () => {
    test.use({ timezoneId: 'Pacific/Auckland' });

    test("on 1 January the footer shows the visitor's year, though the page was built the year before, with no hydration error", async ({
      page,
      request,
    }) => {
      const html = await (await request.get('/')).text();
      const built = Number(/©\s*<span data-current-year[^>]*>(\d{4})</.exec(html)?.[1]);
      expect(built).toBeGreaterThan(2000);
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text());
      });
      page.on('pageerror', (error) => problems.push(error.message));
      // Five past midnight on New Year's Day in Tauranga.
      await page.clock.setFixedTime(new Date(`${built + 1}-01-01T00:05:00+13:00`));
      await ready(page, '/');
      await expect(page.locator('footer')).toContainText(`© ${built + 1}`);
      expect(problems.filter((text) => /hydrat|Minified React error/i.test(text))).toEqual([]);
    });
  });

  test('a link opens the next page at its top', async ({ page }) => {
    await ready(page, '/');
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(200);
    await page.locator('footer').getByRole('link', { name: 'Terms' }).click();
    await expect(page).toHaveURL(/\/terms$/);
    await expect(page.locator('html[data-ready]')).toBeAttached();
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
  });

  test('a #fragment shows its section below the sticky header, not under it', async ({ page }) => {
    await ready(page, '/privacy-policy');
    // A section from the middle, so the page can scroll it to the top.
    const sections = page.locator('.legal-toc a');
    const hash = (await sections
      .nth(Math.floor((await sections.count()) / 2))
      .getAttribute('href'))!;
    const heading = page.locator(`[id="${hash.slice(1)}"]`);
    // A plain fragment navigation, as a link or the address bar makes it.
    await page.evaluate((fragment) => (window.location.hash = fragment), hash);
    await expect(page).toHaveURL(new RegExp(`${hash}$`));
    await expect(heading).toBeInViewport();
    const header = (await page.locator('.site-header').boundingBox())!;
    await expect
      .poll(async () => (await heading.boundingBox())!.y)
      .toBeGreaterThanOrEqual(header.y + header.height);
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(300);
  });
});

test.describe('mobile layout (390 px)', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('top bar: Request an Estimate goes to /quote when the page has no form, a call button, a menu toggle', async ({
    page,
  }) => {
    await ready(page, '/about');
    const estimate = page.getByRole('link', { name: 'Request an Estimate' }).first();
    await expect(estimate).toBeVisible();
    await expect(page.locator('header').getByRole('link', { name: /^Call 07/ })).toHaveAttribute(
      'href',
      /^tel:/,
    );
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
    await estimate.click();
    await expect(page).toHaveURL(/\/quote$/);
  });

  test('the menu opens, locks the page, passes axe, and closes on Escape', async ({ page }) => {
    await ready(page, '/');
    const toggle = page.getByRole('button', { name: 'Open menu' });
    await toggle.click();
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav).toBeVisible();
    await expect(page.getByRole('button', { name: 'Close menu' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    expect(await page.evaluate(() => getComputedStyle(document.body).overflow)).toBe('hidden');

    // While it is open, on this test's page rather than a page of its own.
    await test.step('the open menu passes axe too', async () => {
      expect((await axe(page)).violations).toEqual([]);
    });

    await page.keyboard.press('Escape');
    await expect(nav).toBeHidden();
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeFocused();
    expect(await page.evaluate(() => getComputedStyle(document.body).overflow)).not.toBe('hidden');
  });

  test('the open menu keeps the keyboard: the page behind is inert, Tab wraps round, Escape returns to the button', async ({
    page,
  }) => {
    await ready(page, '/');
    const header = page.locator('header');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(nav).toBeVisible();
    const close = page.getByRole('button', { name: 'Close menu' });
    await close.focus();
    const behind = ['.skip-link', 'main', 'footer', '.phone-bar'];
    for (const selector of behind) {
      await expect(page.locator(selector).first(), selector).toHaveJSProperty('inert', true);
    }

    // Tab goes through the menu and comes round to the close button, never leaving the header.
    const visited: string[] = [];
    for (let step = 0; step < 40; step += 1) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => {
        const active = document.activeElement as HTMLElement | null;
        return {
          inHeader: Boolean(active?.closest('header')),
          name: active?.getAttribute('aria-label') ?? active?.textContent?.trim() ?? '',
        };
      });
      expect(focused.inHeader, `step ${step}: ${focused.name}`).toBe(true);
      if (focused.name === 'Close menu') break;
      visited.push(focused.name);
    }
    await expect(close).toBeFocused();
    expect(visited).toEqual(expect.arrayContaining(['Home', 'Blog', 'Contact']));
    expect(visited.some((name) => name.startsWith('Call Us'))).toBe(true);

    // Shift+Tab from the first control of the header goes round to the last.
    await header.getByRole('link').first().focus();
    await page.keyboard.press('Shift+Tab');
    await expect(nav.getByRole('link', { name: /Call Us/ })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(header.getByRole('link').first()).toBeFocused();

    await page.keyboard.press('Escape');
    await expect(nav).toBeHidden();
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeFocused();
    for (const selector of behind) {
      await expect(page.locator(selector).first(), selector).toHaveJSProperty('inert', false);
    }
  });

  test('the menu closes when the screen becomes wide, leaving nothing inert', async ({ page }) => {
    await ready(page, '/');
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(page.locator('main')).toHaveJSProperty('inert', true);
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(page.locator('main')).toHaveJSProperty('inert', false);
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByRole('button', { name: 'Open menu' })).toHaveAttribute(
      'aria-expanded',
      'false',
    );
  });

  test('an outside tap closes the menu', async ({ page }) => {
    await ready(page, '/');
    await page.getByRole('button', { name: 'Open menu' }).click();
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav).toBeVisible();
    // The fixed bottom phone bar and the page behind the panel are outside the header.
    await page.evaluate(() =>
      document
        .querySelector('footer')!
        .dispatchEvent(new PointerEvent('pointerdown', { bubbles: true })),
    );
    await expect(nav).toBeHidden();
  });

  test('the sticky phone bar appears only after 50 px of scroll', async ({ page }) => {
    await ready(page, '/about');
    const bar = page.locator('.phone-bar');
    await expect(bar).toBeHidden();
    // Every change of the bar, with how far the page was scrolled then.
    await bar.evaluate((element) => {
      const log: number[] = [];
      (window as unknown as { barLog: number[] }).barLog = log;
      new MutationObserver(() => log.push(window.scrollY)).observe(element, {
        attributes: true,
        attributeFilter: ['data-visible'],
      });
    });
    await page.evaluate(() => window.scrollTo(0, 40));
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
    await settled(page);
    await expect(bar).toBeHidden();
    await page.evaluate(() => window.scrollTo(0, 60));
    await expect(bar).toBeVisible();
    // It changed once, and only past 50 px.
    expect(await page.evaluate(() => (window as unknown as { barLog: number[] }).barLog)).toEqual([
      60,
    ]);
    await expect(bar.getByRole('link')).toHaveAttribute('href', /^tel:/);
  });
});

test.describe('before the page script runs (390 px)', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('a tap on the toggle opens the menu, with no fallback', async ({ page }) => {
    // The page's scripts never arrive, as on a slow phone before they have run.
    await page.route('**/assets/*.js', (route) => route.abort());
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav).toBeHidden();
    await page.getByRole('button', { name: 'Open menu' }).tap();
    await expect(nav).toBeVisible();
    await expect(page.locator('html')).not.toHaveAttribute('data-js');
    await page.getByRole('button', { name: 'Open menu' }).tap();
    await expect(nav).toBeHidden();
  });

  // On a phone profile the menu works at the load event, with no fallback period.
  for (const path of ['/', PAGE_PATHS.find((p) => /^\/blog\/(?!category\/)./.test(p))!]) {
    test(`${path}: with the CPU slowed six times, a tap at the load event opens the menu`, async ({
      page,
    }) => {
      // A mid-range phone: the CPU slowed six times, and Lighthouse's mobile
      // network (150 ms round trips, 1.6 Mbit/s down, 750 kbit/s up, with
      // the DevTools factors Lighthouse applies).
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 150 * 3.75,
        downloadThroughput: ((1.6 * 1024 * 1024) / 8) * 0.9,
        uploadThroughput: ((750 * 1024) / 8) * 0.9,
      });
      await page.goto(path, { waitUntil: 'load' });
      // Shown as the load event fires, not once a script has replaced a fallback.
      const toggle = page.getByRole('button', { name: 'Open menu' });
      expect(await toggle.isVisible()).toBe(true);
      await toggle.tap();
      await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    });
  }
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });

  test('pages render, the menu opens and every page stays reachable through it and the footer', async ({
    page,
  }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    // The toggle opens the menu by itself (a popover), so no fallback link is needed.
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav).toBeHidden();
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(nav).toBeVisible();
    // A focused group shows its links.
    await nav.getByRole('button', { name: 'Glass Types' }).click();
    await expect(nav.getByRole('link', { name: 'Planitherm Glass' })).toBeVisible();
    await nav.getByRole('button', { name: 'Services menu' }).click();
    await nav.getByRole('link', { name: 'Windows' }).click();
    await expect(page).toHaveURL(/\/services\/windows$/);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    // The footer lists every page as well.
    await page.locator('footer').getByRole('link', { name: 'Doors', exact: true }).click();
    await expect(page).toHaveURL(/\/services\/doors$/);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  });
});

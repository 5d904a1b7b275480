import { createECDH, randomBytes } from 'node:crypto';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { openStore } from '../app/db/open-store.server.ts';
import { startPushService, type PushServiceStandIn } from '../app/leads/testing/push-service.ts';
import { axe } from './support/axe.ts';
import { freePort } from './support/free-port.ts';
import {
  attachServerLogsOnFailure,
  startSiteServer,
  tempDataDir,
  type SiteServer,
} from './support/lead-server.ts';
import { signInAsOwner } from './support/owner-session.ts';

/**
 * Notifications on the owner's phone, in Chromium (docs/operations.md,
 * "Owner's pages"): the Notifications page asks for permission only once
 * its button is tapped, subscribes and lists the phone, which "Remove"
 * takes off again, with and without JavaScript; the inbox says when no
 * phone gets alerts; a stranger sees no device. Then the service worker
 * itself: a push delivered to it by the DevTools protocol shows the
 * notification, and its "I'm on it" tells the site.
 *
 * Chromium here has no way to the internet's push services (and a test
 * must not use one), so PushManager.prototype.subscribe is replaced, before
 * the page's own script runs, by one that returns a subscription issued by
 * the push service stand-in (app/leads/testing/push-service.ts: an
 * endpoint on 127.0.0.1 that checks the VAPID signature and decrypts what
 * the server sends, with the device's keys); everything else (the
 * permission prompt, the worker's registration, the page's post, the
 * server's checks, store and outbox) is the browser's and the site's own.
 * What the stand-in decrypts is then what the worker is given.
 */

test.describe.configure({ mode: 'default', timeout: 180_000 });
/** An Android phone's Chrome, as the owner's phone would say. */
const ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
test.use({ actionTimeout: 30_000, navigationTimeout: 60_000, userAgent: ANDROID });
// eslint-disable-next-line no-empty-pattern
test.afterEach(async ({}, testInfo) => attachServerLogsOnFailure(testInfo));

const PHONE = { width: 390, height: 844 };

let server: SiteServer;
let site: string;
let data: ReturnType<typeof tempDataDir>;
let pushService: PushServiceStandIn;

test.beforeAll(async () => {
  pushService = await startPushService();
  data = tempDataDir();
  const port = await freePort();
  site = `http://localhost:${port}`;
  server = await startSiteServer({
    PORT: String(port),
    SITE_URL: site,
    DATA_DIR: data.dir,
    LEAD_ACCEPT: 'stored',
  });
});

test.afterAll(async () => {
  await server?.stop();
  await pushService?.close();
  data?.remove();
});

async function postLead(fields: Record<string, string>): Promise<string> {
  const response = await fetch(`${server.url}/api/leads`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email: 'someone@example.nz',
      phone: '021 555 0100',
      service: 'Windows',
      // Each its own words: the same message again is taken for spam.
      message: `A cracked pane in the lounge, job ${randomBytes(4).toString('hex')}`,
      source: 'contact_form',
      ...fields,
    }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** The site's VAPID public key, as the store keeps it. */
async function vapidPublicKey(): Promise<string> {
  const store = await openStore({ dataDir: data.dir });
  try {
    return (await store.getOrCreateVapidKeys()).publicKey;
  } finally {
    await store.close();
  }
}

/** A browser's subscription as a push service would issue it: an endpoint, and the keys of a fresh P-256 pair. */
function pushSubscription(endpoint: string) {
  const ecdh = createECDH('prime256v1');
  return {
    endpoint,
    expirationTime: null,
    keys: {
      p256dh: ecdh.generateKeys().toString('base64url'),
      auth: randomBytes(16).toString('base64url'),
    },
  };
}

/**
 * Counts the page's permission requests, and makes PushManager's subscribe
 * answer `subscription` (recording the key it was asked with), as the
 * browser's push service would.
 */
async function stubPushService(context: BrowserContext, subscription: object): Promise<void> {
  await context.addInitScript((issued) => {
    // Kept for the tab's life: the page reloads once subscribed.
    const seen = (): { permissionRequests: number; key: string } =>
      JSON.parse(sessionStorage.getItem('pushSeen') ?? '{"permissionRequests":0,"key":""}');
    const note = (change: Partial<ReturnType<typeof seen>>) =>
      sessionStorage.setItem('pushSeen', JSON.stringify({ ...seen(), ...change }));
    const request = Notification.requestPermission.bind(Notification);
    Notification.requestPermission = (...args) => {
      note({ permissionRequests: seen().permissionRequests + 1 });
      return request(...args);
    };
    // Once subscribed, this browser's subscription is that one, as a browser keeps it.
    PushManager.prototype.getSubscription = async function () {
      if (!seen().key) return null;
      const key = Uint8Array.from(atob(seen().key.replace(/-/g, '+').replace(/_/g, '/')), (c) =>
        c.charCodeAt(0),
      );
      return {
        ...issued,
        options: { applicationServerKey: key.buffer, userVisibleOnly: true },
        getKey: () => null,
        toJSON: () => issued,
        unsubscribe: async () => true,
      } as unknown as PushSubscription;
    };
    PushManager.prototype.subscribe = async function (options?: PushSubscriptionOptionsInit) {
      const key = new Uint8Array(options?.applicationServerKey as ArrayBuffer);
      note({
        key: btoa(String.fromCharCode(...key))
          .replace(/\+/g, '-')
          .replace(/\//g, '_')
          .replace(/=+$/, ''),
      });
      return {
        ...issued,
        options: { applicationServerKey: key.buffer, userVisibleOnly: true },
        getKey: () => null,
        toJSON: () => issued,
        unsubscribe: async () => true,
      } as unknown as PushSubscription;
    };
  }, subscription);
}

const seen = (page: Page) =>
  page.evaluate(
    () =>
      JSON.parse(sessionStorage.getItem('pushSeen') ?? '{"permissionRequests":0,"key":""}') as {
        permissionRequests: number;
        key: string;
      },
  );

test('a tap turns alerts on for this phone; it is listed, then removed', async ({
  page,
  context,
}) => {
  await page.setViewportSize(PHONE);
  await signInAsOwner(context, server, 'aroha@glass.example.nz');
  await context.grantPermissions(['notifications'], { origin: site });
  const subscription = pushService.subscribe();
  await stubPushService(context, subscription);

  await test.step('the inbox says no phone gets alerts, and leads to the page', async () => {
    await page.goto(`${site}/admin`);
    const banner = page.getByTestId('no-alerts');
    await expect(banner).toHaveText(/No phone gets enquiry alerts yet\.\s*Turn them on/);
    await page.screenshot({ path: test.info().outputPath('inbox-390.png') });
    await banner.getByRole('link', { name: 'Turn them on' }).click();
    await expect(page).toHaveURL(`${site}/admin/notifications`);
    await expect(
      page.getByRole('navigation', { name: "Owner's pages" }).getByRole('link', { name: 'Alerts' }),
    ).toHaveAttribute('aria-current', 'page');
  });

  await test.step('nothing is asked before the tap', async () => {
    await expect(page.getByTestId('no-devices')).toBeVisible();
    await page.waitForLoadState('load');
    expect((await seen(page)).permissionRequests).toBe(0);
    await expect(page.locator('[data-push-home-screen]')).toBeHidden();
    await expect(page.locator('[data-push-unsupported]')).toBeHidden();
  });

  await test.step('axe, and 44 px targets at 390 px', async () => {
    await page.screenshot({
      path: test.info().outputPath('notifications-390.png'),
      fullPage: true,
    });
    expect((await axe(page)).violations.map((violation) => violation.id)).toEqual([]);
    // Nothing wider than the phone: the navigation's four links fit.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      PHONE.width,
    );
    const button = page.getByRole('button', { name: 'Turn on notifications on this phone' });
    const box = await button.boundingBox();
    expect(box!.height).toBeGreaterThanOrEqual(44);
    for (const choice of ['Every enquiry', 'Urgent ones only (glass broken now)']) {
      const label = page.locator('label', { hasText: choice });
      expect((await label.boundingBox())!.height, choice).toBeGreaterThanOrEqual(44);
    }
  });

  await test.step('the tap asks, subscribes with the site’s key, and lists the phone', async () => {
    await page.getByLabel('Urgent ones only (glass broken now)').check();
    await page.getByRole('button', { name: 'Turn on notifications on this phone' }).click();
    await expect(page.getByTestId('push-done')).toHaveText(
      'This phone now gets an alert for urgent enquiries.',
    );
    expect(await seen(page)).toEqual({ permissionRequests: 1, key: await vapidPublicKey() });
    const devices = page.getByTestId('push-device');
    await expect(devices).toHaveCount(1);
    await expect(devices.first()).toContainText('Android phone, Chrome');
    await expect(devices.first()).toContainText('Urgent enquiries only. Added');
    // The browser's own subscription is the one listed: it says so.
    await expect(devices.first()).toContainText('Android phone, Chrome (this phone)');
    // Nothing of the subscription on the page.
    expect(await page.content()).not.toContain(subscription.endpoint);
    expect(await page.content()).not.toContain(subscription.keys.p256dh);
    expect((await axe(page)).violations.map((violation) => violation.id)).toEqual([]);
    await page.screenshot({
      path: test.info().outputPath('notifications-listed-390.png'),
      fullPage: true,
    });
  });

  await test.step('an urgent enquiry is pushed to the phone; a plain one is not', async () => {
    await postLead({ name: 'Plain Pane', urgent: '' });
    const id = await postLead({ name: 'Tama Rewi', service: 'Doors', urgent: 'yes' });
    await pushService.waitForPushes(1, { endpoint: subscription.endpoint, timeoutMs: 60_000 });
    const pushed = pushService.received.filter((push) => push.endpoint === subscription.endpoint);
    expect(pushed.map((push) => push.json)).toEqual([
      {
        type: 'lead',
        id,
        name: 'Tama Rewi',
        service: 'Doors',
        urgent: true,
        url: `/admin/leads/${id}`,
      },
    ]);
    // Signed with the key the phone subscribed with.
    expect(pushed[0]!.vapid.publicKey).toBe(await vapidPublicKey());
  });

  await test.step('the inbox no longer warns; the activity list says it', async () => {
    await page.goto(`${site}/admin`);
    await expect(page.getByRole('heading', { name: 'Enquiries' })).toBeVisible();
    await expect(page.getByTestId('no-alerts')).toHaveCount(0);
    await page.goto(`${site}/admin/activity`);
    await expect(page.getByTestId('activity-row').first()).toContainText(
      'Aroha turned on alerts on an Android phone: urgent enquiries only.',
    );
  });

  await test.step('a stranger gets no device list', async () => {
    for (const url of ['/admin/notifications', '/admin/push']) {
      const response = await fetch(`${server.url}${url}`, {
        headers: { accept: 'application/json' },
        redirect: 'manual',
      });
      expect(response.status, url).toBe(303);
      expect(response.headers.get('location')).toBe('/admin/sign-in');
      expect(await response.text()).not.toContain('Android phone');
    }
  });

  await test.step('"Remove" takes it off', async () => {
    await page.goto(`${site}/admin/notifications`);
    await page.getByRole('button', { name: /^Remove Android phone, Chrome/ }).click();
    await expect(page.getByTestId('push-done')).toHaveText('Removed. It gets no more alerts.');
    await expect(page.getByTestId('push-device')).toHaveCount(0);
    await page.goto(`${site}/admin/activity`);
    await expect(page.getByTestId('activity-row').first()).toContainText(
      'Aroha turned off alerts on an Android phone.',
    );
  });
});

test('without JavaScript the page says why, and still lists and removes devices', async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: PHONE });
  try {
    const owner = await signInAsOwner(context, server, 'hemi@glass.example.nz');
    const store = await openStore({ dataDir: data.dir });
    try {
      await store.addPushSubscription({
        owner_id: owner.id,
        ...pushSubscription('https://push.example.net/send/hemi').keys,
        endpoint: 'https://push.example.net/send/hemi',
        notify: 'all',
        device: 'Android phone, Chrome',
        created_at: new Date().toISOString(),
      });
    } finally {
      await store.close();
    }
    const page = await context.newPage();
    await page.goto(`${site}/admin/notifications`);
    await expect(page.getByText('Notifications need JavaScript on this phone.')).toBeVisible();
    await expect(
      page.getByRole('button', { name: 'Turn on notifications on this phone' }),
    ).toBeHidden();
    const device = page.getByTestId('push-device');
    await expect(device).toHaveCount(1);
    await expect(device).toContainText('Android phone, Chrome');
    await expect(device).toContainText('Every enquiry. Added');
    await page.getByRole('button', { name: /^Remove Android phone, Chrome/ }).click();
    await expect(page.getByTestId('push-done')).toHaveText('Removed. It gets no more alerts.');
    await expect(page.getByTestId('push-device')).toHaveCount(0);
  } finally {
    await context.close();
  }
});

test('an iPhone in Safari is told to add the site to its home screen; a browser without push, that it cannot', async ({
  browser,
}) => {
  const IPHONE =
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
  for (const [what, options, script] of [
    ['iphone', { userAgent: IPHONE }, undefined],
    ['no push', {}, () => Reflect.deleteProperty(window, 'PushManager')],
  ] as const) {
    const context = await browser.newContext({ ...options, viewport: PHONE });
    try {
      if (script) await context.addInitScript(script);
      await signInAsOwner(context, server, `tui.${what.replace(' ', '')}@glass.example.nz`);
      const page = await context.newPage();
      await page.goto(`${site}/admin/notifications`);
      const shown = what === 'iphone' ? '[data-push-home-screen]' : '[data-push-unsupported]';
      const hidden = what === 'iphone' ? '[data-push-unsupported]' : '[data-push-home-screen]';
      await expect(page.locator(shown), what).toBeVisible();
      await expect(page.locator(hidden), what).toBeHidden();
      await expect(
        page.getByRole('button', { name: 'Turn on notifications on this phone' }),
        what,
      ).toBeHidden();
      if (what === 'iphone') {
        await expect(page.locator(shown)).toContainText('tap Share, then “Add to Home Screen”');
      }
      expect((await axe(page)).violations.map((violation) => violation.id)).toEqual([]);
    } finally {
      await context.close();
    }
  }
});

test('POST /admin/push refuses what cannot be used, in plain words', async ({ context, page }) => {
  await signInAsOwner(context, server, 'mere@glass.example.nz');
  await page.goto(`${site}/admin/notifications`);
  const post = (body: unknown) =>
    page.evaluate(async (sent) => {
      const response = await fetch('/admin/push', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(sent),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    }, body);
  const good = pushService.subscribe();
  expect(
    await post({ ...good, endpoint: 'http://push.example.net/send/1', notify: 'all' }),
  ).toEqual({
    status: 400,
    body: {
      ok: false,
      message:
        'This browser’s notification address cannot be used. Try again, or use another browser.',
    },
  });
  expect((await post({ ...good, notify: 'often' })).status).toBe(400);
  expect((await post({ endpoint: good.endpoint, notify: 'all' })).status).toBe(400);
  expect(await post({ ...good, notify: 'all' })).toEqual({ status: 201, body: { ok: true } });
  // From another site: the gate's origin check, before the page.
  const forged = await fetch(`${server.url}/admin/push`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: 'https://attacker.example' },
    body: JSON.stringify({ ...good, notify: 'all' }),
  });
  expect(forged.status).toBe(403);
});

test('the worker shows a pushed enquiry, and its "I’m on it" tells the site', async ({
  page,
  context,
}) => {
  const owner = await signInAsOwner(context, server, 'kiri@glass.example.nz');
  await context.grantPermissions(['notifications'], { origin: site });
  // Kiri's phone, subscribed with the stand-in, gets every enquiry: what
  // the server sends it, decrypted, is what the worker is given below.
  const device = pushService.subscribe();
  const store = await openStore({ dataDir: data.dir });
  try {
    await store.addPushSubscription({
      owner_id: owner.id,
      endpoint: device.endpoint,
      ...device.keys,
      notify: 'all',
      device: 'Android phone, Chrome',
      created_at: new Date().toISOString(),
    });
  } finally {
    await store.close();
  }
  const id = await postLead({ name: 'Tama Rewi', service: 'Doors', urgent: 'yes' });
  await pushService.waitForPushes(1, { endpoint: device.endpoint, timeoutMs: 60_000 });
  const sent = pushService.received.find((push) => push.endpoint === device.endpoint)!;
  const payload = JSON.parse(sent.text) as Record<string, unknown>;
  expect(payload).toMatchObject({ type: 'lead', id, urgent: true });

  // The DevTools protocol names the worker's registration once it is told to watch them.
  const cdp = await context.newCDPSession(page);
  const registrations = new Map<string, string>();
  cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations: updated }) => {
    for (const registration of updated)
      if (!registration.isDeleted)
        registrations.set(registration.scopeURL, registration.registrationId);
  });
  await cdp.send('ServiceWorker.enable');
  await page.goto(`${site}/admin`);
  await page.evaluate(() => navigator.serviceWorker.ready);
  await expect.poll(() => registrations.get(`${site}/admin`)).toBeDefined();
  const registrationId = registrations.get(`${site}/admin`)!;

  await cdp.send('ServiceWorker.deliverPushMessage', {
    origin: site,
    registrationId,
    data: sent.text,
  });
  const shown = () =>
    page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      return (await registration.getNotifications()).map((notification) => ({
        title: notification.title,
        body: notification.body,
        tag: notification.tag,
        data: notification.data as unknown,
        actions: (notification as Notification & { actions: unknown[] }).actions,
        requireInteraction: notification.requireInteraction,
      }));
    });
  await expect.poll(shown).toHaveLength(1);
  expect((await shown())[0]).toEqual({
    title: 'URGENT: glass broken now. Tama Rewi',
    body: 'Doors',
    tag: id,
    data: { url: `/admin/leads/${id}`, ack: `/admin/leads/${id}/ack` },
    actions: [{ action: 'ack', title: 'I’m on it', icon: '', placeholder: null, type: 'button' }],
    requireInteraction: true,
  });

  // The same enquiry again (its escalation) replaces it, still unanswered.
  await cdp.send('ServiceWorker.deliverPushMessage', {
    origin: site,
    registrationId,
    data: JSON.stringify({ ...payload, escalated: true }),
  });
  await expect
    .poll(async () => (await shown()).map((n) => n.body))
    .toEqual(['Still unanswered. Doors']);

  // A tap on "I’m on it": Chromium here cannot tap a notification, so the
  // worker is handed the event a tap makes, built from the notification it
  // shows. Its post carries the owner's session and the site's Origin (the
  // gate refuses any change without it), and the site notes who is on it.
  const [worker] = context.serviceWorkers().filter((w) => w.url() === `${site}/admin/sw.js`);
  expect(worker).toBeDefined();
  await worker!.evaluate(async (tag) => {
    // The worker's global (the project's types are the DOM's, not a worker's).
    const scope = self as unknown as {
      registration: ServiceWorkerRegistration;
      NotificationEvent: new (type: string, init: object) => Event;
      dispatchEvent(event: Event): boolean;
    };
    const [notification] = await scope.registration.getNotifications({ tag });
    scope.dispatchEvent(
      new scope.NotificationEvent('notificationclick', { notification, action: 'ack' }),
    );
  }, id);
  await expect.poll(shown).toEqual([]);
  await page.goto(`${site}/admin/leads/${id}`);
  await expect(page.getByText(/Kiri is on it since/)).toBeVisible();
  await page.goto(`${site}/admin/activity`);
  await expect(page.getByTestId('activity-row').first()).toContainText(
    'Kiri said “I’m on it” for an enquiry.',
  );
});

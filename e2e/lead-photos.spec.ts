import sharp from 'sharp';
import { expect, test, type Browser, type Locator } from '@playwright/test';
import { PHOTOS_FIELD } from '../app/leads/intake/form-rules.ts';
import {
  startSmtpServer,
  type ReceivedMail,
  type TestSmtpServer,
} from '../app/leads/testing/smtp-test-support.server.ts';
import { startReceiver, type Receiver } from '../app/leads/testing/test-support.server.ts';
import { freePort } from './support/free-port.ts';
import {
  attachServerLogsOnFailure,
  startSiteServer,
  tempDataDir,
  uniqueToken,
  type SiteServer,
} from './support/lead-server.ts';
import { signInAsOwner } from './support/owner-session.ts';

/**
 * Photos sent with an enquiry reach the owner (docs/operations.md#lead-e-mail,
 * #webhook-payload, "Owner's pages"): the contact form with three photos,
 * with JavaScript and without, to a server of the test's own with the lead
 * e-mail (a real SMTP server on loopback) and a webhook stand-in. The photos
 * arrive as three bare JPEG attachments, as three images on the lead's page
 * and as signed links that answer without a session, and not once tampered
 * with.
 */

test.describe.configure({ mode: 'default', timeout: 240_000 });
test.use({ actionTimeout: 30_000, navigationTimeout: 60_000 });
// eslint-disable-next-line no-empty-pattern
test.afterEach(async ({}, testInfo) => attachServerLogsOnFailure(testInfo));

interface Photo {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/**
 * Three photos made here: a 1200×900 JPEG carrying EXIF orientation 6 (shown
 * turned a quarter), GPS and a camera maker; a PNG; a plain JPEG.
 */
async function photos(): Promise<Photo[]> {
  const withGps = await sharp({
    create: { width: 1200, height: 900, channels: 3, background: { r: 200, g: 60, b: 40 } },
  })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .withExifMerge({
      IFD0: { Make: 'Secret-Camera-Maker' },
      IFD3: {
        GPSLatitudeRef: 'S',
        GPSLatitude: '37/1 41/1 0/1',
        GPSLongitudeRef: 'E',
        GPSLongitude: '176/1 10/1 0/1',
      },
    })
    .toBuffer();
  const metadata = await sharp(withGps).metadata();
  expect(metadata.orientation).toBe(6);
  expect(metadata.exif?.toString('latin1')).toContain('Secret-Camera-Maker');
  const png = await sharp({
    create: { width: 640, height: 480, channels: 3, background: { r: 40, g: 160, b: 90 } },
  })
    .png()
    .toBuffer();
  const plain = await sharp({
    create: { width: 800, height: 600, channels: 3, background: { r: 30, g: 60, b: 200 } },
  })
    .jpeg()
    .toBuffer();
  return [
    { name: 'window-gps.jpg', mimeType: 'image/jpeg', buffer: withGps },
    { name: 'frame.png', mimeType: 'image/png', buffer: png },
    { name: 'door.jpg', mimeType: 'image/jpeg', buffer: plain },
  ];
}

let server: SiteServer;
/** SITE_URL: http://localhost:PORT, where the browsers go. */
let site: string;
let smtp: TestSmtpServer;
let receiver: Receiver;
let data: ReturnType<typeof tempDataDir>;
let chosen: Photo[];

test.beforeAll(async () => {
  chosen = await photos();
  data = tempDataDir();
  smtp = await startSmtpServer();
  receiver = await startReceiver('ok');
  const port = await freePort();
  site = `http://localhost:${port}`;
  server = await startSiteServer({
    PORT: String(port),
    SITE_URL: site,
    DATA_DIR: data.dir,
    LEAD_WEBHOOK_URLS: receiver.url,
    LEAD_EMAIL_TO: 'office@glass.example.nz',
    LEAD_EMAIL_FROM: 'website@glass.example.nz',
    SMTP_URL: smtp.url,
    LEAD_ACCEPT: 'stored',
  });
});

test.afterAll(async () => {
  await server?.stop();
  await receiver?.close();
  await smtp?.close();
  data?.remove();
});

async function fill(form: Locator, token: string) {
  await form.getByLabel('Name', { exact: true }).fill(`Photo Sender ${token}`);
  await form.getByLabel('Email', { exact: true }).fill(`photos.${token}@example.nz`);
  await form.getByLabel('Phone', { exact: true }).fill('027 555 0177');
  await form.getByLabel('Message', { exact: true }).fill(`Three photos of the damage, ${token}.`);
  await form.getByLabel('Service').selectOption('Windows');
}

interface PhotoLink {
  url: string;
  width: number;
  height: number;
  bytes: number;
}

/** The webhook's JSON for this visitor, once it has arrived. */
async function webhookFor(email: string): Promise<{ id: string; photos: PhotoLink[] }> {
  const find = () =>
    receiver.requests
      .map((request) => request.json as { id: string; email: string; photos: PhotoLink[] })
      .find((json) => json.email === email);
  await expect.poll(() => find() !== undefined, { timeout: 60_000 }).toBe(true);
  return find()!;
}

/** The lead e-mail of this lead, once it has arrived. */
async function mailFor(id: string): Promise<ReceivedMail> {
  const find = () => smtp.messages.find((mail) => mail.parsed.headers.get('x-lead-id') === id);
  await expect.poll(() => find() !== undefined, { timeout: 60_000 }).toBe(true);
  return find()!;
}

/** A webhook link, fetched from here (no cookie, no session) at the server's loopback address. */
function fetchLink(link: string): Promise<Response> {
  const url = new URL(link);
  return fetch(new URL(`${url.pathname}${url.search}`, server.url));
}

async function checkOwnerSees(browser: Browser, js: boolean, id: string, token: string) {
  const context = await browser.newContext({
    javaScriptEnabled: js,
    viewport: { width: 390, height: 844 },
  });
  try {
    await signInAsOwner(context, server, `owner.${token}@glass.example.nz`);
    const page = await context.newPage();
    await page.goto(`${site}/admin`);
    const row = page.getByTestId('lead-row').filter({ hasText: `Photo Sender ${token}` });
    await expect(row.getByTestId('photo-count')).toHaveText('3 photos');
    await page.goto(`${site}/admin/leads/${id}`);
    const images = page.getByTestId('lead-photo').getByRole('img');
    await expect(images).toHaveCount(3);
    for (const [index, image] of (await images.all()).entries()) {
      await expect(image).toHaveAccessibleName(`Photo ${index + 1} sent with the enquiry`);
      await image.scrollIntoViewIfNeeded();
      // Loaded: the browser decoded it, at the size the page states.
      await expect
        .poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth))
        .toBeGreaterThan(0);
      const [natural, stated] = await image.evaluate((element: HTMLImageElement) => [
        `${element.naturalWidth}x${element.naturalHeight}`,
        `${element.getAttribute('width')}x${element.getAttribute('height')}`,
      ]);
      expect(natural).toBe(stated);
    }
    // The first photo stood on its side: it is upright now (900×1200).
    await expect(images.first()).toHaveAttribute('width', '900');
    // Each opens full size, behind the sign-in.
    const full = await page.request.get(`${site}/admin/leads/${id}/photos/1`);
    expect(full.status()).toBe(200);
    expect(full.headers()['content-type']).toBe('image/jpeg');
    expect(full.headers()['cache-control']).toBe('no-store');
  } finally {
    await context.close();
  }
}

for (const js of [true, false]) {
  test(`${js ? 'with' : 'without'} JavaScript: three photos reach the e-mail bare, the lead's page and the webhook's signed links`, async ({
    browser,
  }) => {
    const token = uniqueToken();
    const context = await browser.newContext({ javaScriptEnabled: js });
    const page = await context.newPage();
    await page.goto(`${site}/contact`);
    const form = page.locator('form[data-quote-form]');
    if (js) {
      await expect(page.locator('html[data-ready]')).toBeAttached();
      await expect(form.locator('input[name="idempotency_key"]')).not.toHaveValue('');
    }
    await fill(form, token);
    await form.locator(`input[type="file"][name="${PHOTOS_FIELD}"]`).setInputFiles(chosen);
    await form.getByRole('button', { name: 'Send My Enquiry' }).click();
    await expect(page).toHaveURL(/\/thank-you$/);
    await context.close();

    // The webhook: three signed links, each the photo without a session.
    const hook = await webhookFor(`photos.${token}@example.nz`);
    expect(hook.photos).toHaveLength(3);
    for (const [index, photo] of hook.photos.entries()) {
      expect(photo.url.startsWith(`${site}/lead-photos/${hook.id}/${index + 1}?`)).toBe(true);
      const response = await fetchLink(photo.url);
      expect(response.status, photo.url).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/jpeg');
      expect(response.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);
      const body = Buffer.from(await response.arrayBuffer());
      expect(body.byteLength).toBe(photo.bytes);
      const metadata = await sharp(body).metadata();
      expect([metadata.width, metadata.height]).toEqual([photo.width, photo.height]);
    }
    const first = new URL(hook.photos[0]!.url);
    const sig = first.searchParams.get('sig')!;
    first.searchParams.set('sig', `${sig.slice(0, -2)}${sig.endsWith('AA') ? 'BB' : 'AA'}`);
    expect((await fetchLink(first.href)).status).toBe(404);
    // Another photo's signature does not open this one.
    const second = new URL(hook.photos[1]!.url);
    first.searchParams.set('sig', second.searchParams.get('sig')!);
    first.searchParams.set('expires', second.searchParams.get('expires')!);
    expect((await fetchLink(first.href)).status).toBe(404);

    // The e-mail: three JPEG attachments without EXIF (no GPS, no orientation).
    const mail = await mailFor(hook.id);
    expect(mail.parsed.text).toContain(`${site}/admin/leads/${hook.id}`);
    expect(mail.parsed.attachments.map((a) => [a.filename, a.contentType])).toEqual([
      ['photo-1.jpg', 'image/jpeg'],
      ['photo-2.jpg', 'image/jpeg'],
      ['photo-3.jpg', 'image/jpeg'],
    ]);
    for (const attachment of mail.parsed.attachments) {
      const metadata = await sharp(attachment.content).metadata();
      expect(metadata.format).toBe('jpeg');
      for (const field of ['exif', 'xmp', 'iptc', 'orientation'] as const) {
        expect(metadata[field], `${attachment.filename} ${field}`).toBeUndefined();
      }
      expect(attachment.content.toString('latin1')).not.toContain('Secret-Camera-Maker');
    }
    // The one that carried GPS and orientation 6 is upright.
    const upright = await sharp(mail.parsed.attachments[0]!.content).metadata();
    expect([upright.width, upright.height]).toEqual([900, 1200]);

    // The owner's pages: the inbox counts them, the lead's page shows them.
    await checkOwnerSees(browser, js, hook.id, token);
  });
}

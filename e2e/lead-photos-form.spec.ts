import busboy from 'busboy';
import sharp from 'sharp';
import { expect, test, type Locator, type Page, type Request } from '@playwright/test';
import {
  HONEYPOT_FIELD,
  PHOTOS_FIELD,
  SUBMIT_FAILED_MESSAGE,
} from '../app/leads/intake/form-rules.ts';
import { PROOF_OF_WORK_FIELD } from '../app/leads/intake/form-submission.ts';
import { ATTRIBUTION_FIELDS } from '../app/leads/intake/attribution.ts';
import { axe } from './support/axe.ts';

/** Fields the site adds to every lead form (the proof of work, where the visit came from). */
const ADDED_TO_EVERY_FORM: ReadonlySet<string> = new Set([
  PROOF_OF_WORK_FIELD,
  ...ATTRIBUTION_FIELDS,
]);
const notTheFormsOwn = (name: string) => ADDED_TO_EVERY_FORM.has(name);

/**
 * The photo picker of the contact and quote forms in a browser
 * (docs/forms.md#photos, docs/interactive-parts.md#photo-picker): choosing,
 * removing and adding photos, and the multipart body the page sends, read
 * here part by part. The tests that read the request answer it themselves
 * (page.route); the last two post to the site's server, which must read
 * multipart posts (docs/operations.md#photos-with-an-enquiry).
 */

interface Photo {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/** A small JPEG of one colour. */
async function jpeg(name: string, r: number, g: number, b: number): Promise<Photo> {
  const buffer = await sharp({
    create: { width: 48, height: 32, channels: 3, background: { r, g, b } },
  })
    .jpeg()
    .toBuffer();
  return { name, mimeType: 'image/jpeg', buffer };
}

let photos: Photo[];
test.beforeAll(async () => {
  photos = await Promise.all([
    jpeg('one.jpg', 200, 40, 40),
    jpeg('two.jpg', 40, 200, 40),
    jpeg('three.jpg', 40, 40, 200),
    jpeg('four.jpg', 200, 200, 40),
  ]);
});

interface Multipart {
  contentType: string;
  /** Text fields in the order sent. */
  fields: Array<[string, string]>;
  files: Array<{ field: string; filename: string; mimeType: string; bytes: Buffer }>;
}

/** The body of a posted form, read with busboy as the server reads it. */
function readMultipart(request: Request): Promise<Multipart> {
  const contentType: string = request.headers()['content-type'] ?? '';
  const body = request.postDataBuffer() ?? Buffer.alloc(0);
  const result: Multipart = { contentType, fields: [], files: [] };
  return new Promise((resolve, reject) => {
    const reader = busboy({ headers: { 'content-type': contentType } });
    reader.on('field', (name, value) => result.fields.push([name, value]));
    reader.on('file', (field, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () =>
        result.files.push({
          field,
          filename: info.filename ?? '',
          mimeType: info.mimeType,
          bytes: Buffer.concat(chunks),
        }),
      );
    });
    reader.on('close', () => resolve(result));
    reader.on('error', reject);
    reader.end(body);
  });
}

async function fill(form: Locator, token = 'photos') {
  await form.getByLabel('Name', { exact: true }).fill(`Tama ${token}`);
  await form.getByLabel('Email', { exact: true }).fill(`tama.${token}@example.nz`);
  await form.getByLabel('Phone', { exact: true }).fill('027 555 0199');
  await form.getByLabel('Message', { exact: true }).fill(`A cracked pane, ${token}.`);
  await form.getByLabel('Service').selectOption('Windows');
}

/** The form once its code runs: the key is set and the picker's button is there. */
async function openForm(page: Page, path: string): Promise<Locator> {
  await page.goto(path);
  await expect(page.locator('html[data-ready]')).toBeAttached();
  const form = page.locator('form[data-quote-form]');
  await expect(form.locator('input[name="idempotency_key"]')).not.toHaveValue('');
  await expect(form.getByText('Add photos', { exact: true })).toBeVisible();
  return form;
}

const fileInput = (form: Locator) => form.locator(`input[type="file"][name="${PHOTOS_FIELD}"]`);
const chosenNames = (form: Locator) => form.locator('.photo-picker__name');

test.describe('with JavaScript', () => {
  test('three photos, one removed, one added: the post to /api/leads is multipart with the text fields, the key, the honeypot and the three photos in order', async ({
    page,
  }) => {
    const [one, two, three, four] = photos as [Photo, Photo, Photo, Photo];
    const form = await openForm(page, '/quote');
    await fill(form);
    await fileInput(form).setInputFiles([one, two, three]);
    await expect(chosenNames(form)).toHaveText(['one.jpg', 'two.jpg', 'three.jpg']);
    await expect(form.getByRole('status')).toHaveText('3 photos added. 3 of 3 photos chosen.');
    const secondUrl = await form.locator('.photo-picker__thumb').nth(1).getAttribute('src');

    await form.getByRole('button', { name: 'Remove photo 2: two.jpg' }).click();
    await expect(chosenNames(form)).toHaveText(['one.jpg', 'three.jpg']);
    await expect(form.getByRole('button', { name: 'Remove photo 2: three.jpg' })).toBeFocused();
    await expect(form.getByRole('status')).toHaveText(
      'Removed photo 2: two.jpg. 2 of 3 photos chosen.',
    );
    // Its object URL is gone.
    expect(
      await page.evaluate(
        (url) =>
          fetch(url!).then(
            () => 'readable',
            () => 'revoked',
          ),
        secondUrl,
      ),
    ).toBe('revoked');

    await fileInput(form).setInputFiles([four]);
    await expect(chosenNames(form)).toHaveText(['one.jpg', 'three.jpg', 'four.jpg']);

    const key = await form.locator('input[name="idempotency_key"]').inputValue();
    const posted: Request[] = [];
    await page.route('**/api/leads', (route) => {
      posted.push(route.request());
      return route.fulfill({ status: 502, json: { error: SUBMIT_FAILED_MESSAGE } });
    });
    await form.getByRole('button', { name: 'Request My Free Quote' }).click();
    await expect(form.getByRole('alert')).toHaveText(SUBMIT_FAILED_MESSAGE);
    expect(posted).toHaveLength(1);
    const request = posted[0]!;
    expect(request.method()).toBe('POST');
    expect(request.headers().accept).toBe('application/json');
    const body = await readMultipart(request);
    expect(body.contentType).toMatch(/^multipart\/form-data; boundary=/);
    // The proof of work goes too when it was solved in time, and where the
    // visit came from: they are e2e/proof-of-work.spec.ts's and
    // e2e/attribution.spec.ts's; here, the form's own fields.
    expect(body.fields.filter(([name]) => !notTheFormsOwn(name))).toEqual([
      ['name', 'Tama photos'],
      ['email', 'tama.photos@example.nz'],
      ['phone', '027 555 0199'],
      ['service', 'Windows'],
      ['message', 'A cracked pane, photos.'],
      [HONEYPOT_FIELD, ''],
      ['idempotency_key', key],
      ['form', 'quote_form'],
    ]);
    expect(body.files.map(({ field, filename, mimeType }) => [field, filename, mimeType])).toEqual([
      [PHOTOS_FIELD, 'one.jpg', 'image/jpeg'],
      [PHOTOS_FIELD, 'three.jpg', 'image/jpeg'],
      [PHOTOS_FIELD, 'four.jpg', 'image/jpeg'],
    ]);
    expect(body.files.map((file) => file.bytes)).toEqual([one.buffer, three.buffer, four.buffer]);
    // The photos stay for the next attempt.
    await expect(chosenNames(form)).toHaveText(['one.jpg', 'three.jpg', 'four.jpg']);
  });

  // A thumbnail is an object URL (blob:), which the page's Content-Security-Policy
  // must allow as an image source (server/csp.server.ts, img-src).
  test('each chosen photo shows as its thumbnail', async ({ page }) => {
    const form = await openForm(page, '/contact');
    await fileInput(form).setInputFiles(photos.slice(0, 2));
    await expect(chosenNames(form)).toHaveText(['one.jpg', 'two.jpg']);
    const thumbnails = await form.locator('.photo-picker__thumb').all();
    expect(thumbnails).toHaveLength(2);
    for (const image of thumbnails) {
      await expect
        .poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth))
        .toBe(48);
    }
  });

  test('without photos the post is URL-encoded, as before', async ({ page }) => {
    const form = await openForm(page, '/contact');
    await fill(form);
    const posted: Request[] = [];
    await page.route('**/api/leads', (route) => {
      posted.push(route.request());
      return route.fulfill({ status: 502, json: { error: SUBMIT_FAILED_MESSAGE } });
    });
    await form.getByRole('button', { name: 'Send My Enquiry' }).click();
    await expect(form.getByRole('alert')).toHaveText(SUBMIT_FAILED_MESSAGE);
    expect(posted[0]!.headers()['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    const names = [...new URLSearchParams(posted[0]!.postData() ?? '').keys()];
    expect(names.filter((name) => !notTheFormsOwn(name))).toEqual([
      'name',
      'email',
      'phone',
      'service',
      'message',
      HONEYPOT_FIELD,
      'idempotency_key',
      'form',
    ]);
  });

  test.describe('at 390 px', () => {
    test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

    test('44 px targets, and no WCAG A/AA violation with photos chosen', async ({ page }) => {
      const form = await openForm(page, '/contact');
      await fileInput(form).setInputFiles(photos.slice(0, 3));
      await expect(chosenNames(form)).toHaveCount(3);
      const targets = [
        form.getByText('Add photos', { exact: true }),
        ...(await form.getByRole('button', { name: /^Remove photo/ }).all()),
      ];
      for (const target of targets) {
        const box = (await target.boundingBox())!;
        const name = (await target.getAttribute('aria-label')) ?? 'Add photos';
        expect(box.width, name).toBeGreaterThanOrEqual(44);
        expect(box.height, name).toBeGreaterThanOrEqual(44);
      }
      // Nothing wider than the screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        390,
      );
      // A refused choice, its message beside the field.
      await fileInput(form).setInputFiles([photos[3]!]);
      await expect(fileInput(form)).toHaveAttribute('aria-invalid', 'true');
      const results = await axe(page);
      expect(results.violations.map((violation) => violation.id)).toEqual([]);
    });
  });

  test('with the server: photos sent with the form lead to /thank-you', async ({ page }) => {
    const form = await openForm(page, '/quote');
    await fill(form, 'server');
    await fileInput(form).setInputFiles(photos.slice(0, 2));
    await form.getByRole('button', { name: 'Request My Free Quote' }).click();
    await expect(page).toHaveURL(/\/thank-you$/);
  });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the form posts multipart to its own page, with the files chosen', async ({ page }) => {
    const [one, two] = photos as [Photo, Photo];
    await page.goto('/contact');
    const form = page.locator('form[data-quote-form]');
    await fill(form, 'plain');
    await form.getByLabel(/^Photos/).setInputFiles([one, two]);
    const posted: Request[] = [];
    await page.route(
      (url) => url.pathname === '/contact',
      (route) => {
        if (route.request().method() !== 'POST') return route.fallback();
        posted.push(route.request());
        return route.fulfill({ contentType: 'text/html', body: '<!doctype html><p>Posted</p>' });
      },
    );
    await form.getByRole('button', { name: 'Send My Enquiry' }).click();
    await expect(page.getByText('Posted')).toBeVisible();
    expect(posted).toHaveLength(1);
    const body = await readMultipart(posted[0]!);
    expect(body.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(Object.fromEntries(body.fields)).toMatchObject({
      name: 'Tama plain',
      email: 'tama.plain@example.nz',
      service: 'Windows',
      [HONEYPOT_FIELD]: '',
    });
    expect(body.files.map(({ field, filename, bytes }) => [field, filename, bytes])).toEqual([
      [PHOTOS_FIELD, 'one.jpg', one.buffer],
      [PHOTOS_FIELD, 'two.jpg', two.buffer],
    ]);
  });

  test('with the server: a post without photos still lands on /thank-you', async ({ page }) => {
    await page.goto('/quote');
    const form = page.locator('form[data-quote-form]');
    await fill(form, 'plain-server');
    await form.getByRole('button', { name: 'Request My Free Quote' }).click();
    await expect(page).toHaveURL(/\/thank-you$/);
  });
});

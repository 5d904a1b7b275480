import { expect, test, type Locator, type Page } from '@playwright/test';
import { LEAD_CHALLENGE_PATH, PROOF_OF_WORK_FIELD } from '../app/leads/intake/form-submission.ts';
import { startReceiver, type Receiver } from '../app/leads/testing/test-support.server.ts';
import {
  attachServerLogsOnFailure,
  exportLeads,
  startSiteServer,
  tempDataDir,
  uniqueToken,
  type SiteServer,
} from './support/lead-server.ts';

/**
 * The lead forms' invisible proof of work (docs/forms.md#proof-of-work) in
 * Chromium, against a server of our own with one webhook: the form fetches
 * a challenge only once the visitor is in it, solves it in a Web Worker
 * while they type and sends the solution with the enquiry, which is not
 * spam; the same solution sent again is spam (answered as a success, never
 * delivered); and a form posted without JavaScript, which has none, is not
 * spam for that.
 */

let server: SiteServer;
let data: ReturnType<typeof tempDataDir>;
let receiver: Receiver;

test.beforeAll(async () => {
  receiver = await startReceiver('ok');
  data = tempDataDir();
  server = await startSiteServer({
    DATA_DIR: data.dir,
    LEAD_WEBHOOK_URLS: receiver.url,
    LEAD_ACCEPT: 'stored',
  });
});

test.afterAll(async () => {
  await server?.stop();
  await receiver?.close();
  data?.remove();
});

// eslint-disable-next-line no-empty-pattern
test.afterEach(async ({}, testInfo) => attachServerLogsOnFailure(testInfo));

async function leadsWith(token: string) {
  const leads = await exportLeads({ DATA_DIR: data.dir });
  return leads.filter((lead) => lead.name.includes(token) || lead.message.includes(token));
}

async function fillQuote(form: Locator, token: string) {
  await form.getByLabel('Name', { exact: true }).fill(`Mere ${token}`);
  await form.getByLabel('Email', { exact: true }).fill(`mere.${token}@example.co.nz`);
  await form.getByLabel('Phone', { exact: true }).fill('027 555 0142');
  await form.getByLabel('Service').selectOption('Windows');
  await form
    .getByLabel('Message', { exact: true })
    .fill(`Cracked ranch slider in Ōtūmoetai, ${token}.`);
}

/** The paths of the site's own requests the page makes from now on. */
function recordRequests(page: Page): string[] {
  const paths: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.origin === server.url) paths.push(url.pathname);
  });
  return paths;
}

test('with JavaScript: solved while the visitor types, sent with the enquiry; sent again, spam', async ({
  page,
}) => {
  const token = uniqueToken();
  const requested = recordRequests(page);
  await page.goto(`${server.url}/quote`);
  await expect(page.locator('html[data-ready]')).toBeAttached();
  const form = page.locator('form[data-quote-form]');
  await expect(form.locator('input[name="idempotency_key"]')).not.toHaveValue('');
  await page.evaluate(() => new Promise<void>((resolve) => requestIdleCallback(() => resolve())));
  // Nothing before the visitor is in the form: no challenge, no worker.
  expect(requested).not.toContain(LEAD_CHALLENGE_PATH);
  expect(page.workers()).toEqual([]);

  // The worker starts when the visitor first focuses the form, and ends
  // once it has the solution.
  const workerStarted = page.waitForEvent('worker', { timeout: 60_000 });
  await form.getByLabel('Name', { exact: true }).focus();
  const worker = await workerStarted;
  const solved = new Promise<void>((resolve) => worker.once('close', () => resolve()));
  await fillQuote(form, token);
  await solved;
  expect(requested.filter((path) => path === LEAD_CHALLENGE_PATH)).toHaveLength(1);

  const posted = page.waitForRequest(
    (request) => request.method() === 'POST' && new URL(request.url()).pathname === '/api/leads',
  );
  await form.getByRole('button', { name: 'Request My Free Quote' }).click();
  const body = new URLSearchParams((await posted).postData() ?? '');
  await expect(page).toHaveURL(/\/thank-you$/);
  const altcha = body.get(PROOF_OF_WORK_FIELD);
  expect(altcha).toBeTruthy();
  const { challenge, solution } = JSON.parse(Buffer.from(altcha!, 'base64').toString('utf8')) as {
    challenge: { parameters: { algorithm: string; cost: number } };
    solution: { counter: number; time: number };
  };
  expect(challenge.parameters.algorithm).toBe('PBKDF2/SHA-256');
  console.log(
    `proof of work solved in ${solution.time} ms (counter ${solution.counter}, cost ${challenge.parameters.cost})`,
  );
  // Stored, not spam, and delivered; the server checked it valid.
  await expect(async () => {
    const [lead] = await leadsWith(token);
    expect(lead?.status).toBe('accepted');
    expect(receiver.requests.filter((request) => request.body.includes(token))).toHaveLength(1);
  }).toPass();
  expect(server.output()).toMatch(/"proof":"valid"[^\n]*"msg":"Lead accepted \(stored\)"/);

  // The same solution with another enquiry (another key): a success to
  // the sender, kept as spam, delivered nowhere.
  const replayToken = uniqueToken();
  body.set('name', `Mere ${replayToken}`);
  body.set('idempotency_key', `replay-${replayToken}`);
  const replay = await page.request.post(`${server.url}/api/leads`, {
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: server.url },
    data: body.toString(),
  });
  expect(replay.status()).toBe(201);
  expect((await leadsWith(replayToken)).map((lead) => lead.status)).toEqual(['spam']);
  expect(receiver.requests.filter((request) => request.body.includes(replayToken))).toEqual([]);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('a form posted without one has no proof of work, and is not spam for that', async ({
    page,
  }) => {
    const token = uniqueToken();
    const requested = recordRequests(page);
    await page.goto(`${server.url}/quote`);
    const form = page.locator('form[data-quote-form]');
    await fillQuote(form, token);
    await form.getByRole('button', { name: 'Request My Free Quote' }).click();
    await expect(page).toHaveURL(/\/thank-you$/);
    expect(requested).not.toContain(LEAD_CHALLENGE_PATH);
    expect((await leadsWith(token)).map((lead) => lead.status)).toEqual(['accepted']);
  });

  test("a form's pages may start its worker; other pages may not", async ({ request }) => {
    const workerSrc = (csp: string | undefined) =>
      csp?.split('; ').find((directive) => directive.startsWith('worker-src '));
    for (const [path, allowed] of [
      ['/quote', "'self'"],
      ['/', "'self'"],
      ['/about', "'none'"],
      ['/no-such-page', "'none'"],
    ] as const) {
      const response = await request.get(`${server.url}${path}`);
      expect([path, workerSrc(response.headers()['content-security-policy'])]).toEqual([
        path,
        `worker-src ${allowed}`,
      ]);
    }
    // The page a refused post comes back as has the form, and its worker.
    const refused = await request.post(`${server.url}/quote`, {
      form: { name: 'Mere', email: 'mere@example', phone: '027 555 0142', message: 'x' },
      headers: { Origin: server.url },
    });
    expect(refused.status()).toBe(400);
    expect(workerSrc(refused.headers()['content-security-policy'])).toBe("worker-src 'self'");
  });
});

import { expect, test, type Locator, type Page } from '@playwright/test';
import { HONEYPOT_FIELD, URGENT_FIELD } from '../app/leads/intake/form-rules.ts';
import {
  attachServerLogsOnFailure,
  exportLeads,
  startSiteServer,
  tempDataDir,
  uniqueToken,
  type SiteServer,
} from './support/lead-server.ts';

/**
 * docs/forms.md#honeypot: a real person whose browser or password manager fills the
 * form must not be taken for a bot. The spam trap once was `website`, which
 * identity fillers complete with a home page, so a genuine enquiry was kept
 * as spam and never delivered.
 *
 * The fill below follows the autofill rules: a field's autocomplete token
 * decides its type; where there is none, or it is "off" (which Chromium
 * ignores for address autofill), the type is guessed from the field's name,
 * id and label with patterns after Chromium's (autofill_regex_constants) and
 * the identity fill of password managers (their website/URL field). Every
 * field that gets a type is filled, visible or not, as those fillers do; the
 * fields no filler knows (service, message, choices) are then filled by hand.
 */

const AUTOFILL_PATTERNS: ReadonlyArray<readonly [type: string, pattern: RegExp]> = [
  ['email', /e.?mail/i],
  ['tel', /phone|mobile|contact.?number|\btel\b/i],
  ['given-name', /first.*name|fname|first$|given.*name/i],
  ['family-name', /last.*name|lname|surname|last$|family.*name/i],
  ['name', /^name|full.?name|your.?name|customer.?name|contact.?(name|person)/i],
  ['organization', /company|business.?name|organi[sz]ation/i],
  ['postal-code', /zip|postal|post.?code|pcode/i],
  ['street-address', /^address$|address.?line|street/i],
  ['address-level2', /\bcity\b|\btown\b|suburb/i],
  ['url', /url|web.?site|web.?page|home.?page|www/i],
  ['username', /user.?name|login|nick/i],
];

/** The identity a browser profile holds; macrons as a New Zealander types them. */
const PROFILE: Record<string, (token: string) => string> = {
  email: (token) => `mere.${token}@example.co.nz`,
  tel: () => '+64 21 555 0107',
  'given-name': (token) => `Mere${token}`,
  'family-name': () => 'Tūhoe',
  name: (token) => `Mere${token} Tūhoe`,
  organization: () => 'Tūhoe Holdings',
  'postal-code': () => '3118',
  'street-address': () => '12 Example Road',
  'address-level2': () => 'Pāpāmoa',
  url: () => 'https://tuhoe.example.nz',
  username: (token) => `mere${token}`,
};

interface Control {
  index: number;
  tag: string;
  type: string;
  name: string;
  visible: boolean;
  /** The autofill type, or '' when no filler would touch the field. */
  autofill: string;
}

/** Every control of the form, with the type an autofill would give it. */
async function classify(form: Locator): Promise<Control[]> {
  const described = await form.evaluate((element) =>
    Array.from(
      (element as HTMLFormElement).querySelectorAll<
        HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement
      >('input, textarea, select'),
    ).map((control, index) => ({
      index,
      tag: control.tagName.toLowerCase(),
      type: control instanceof HTMLInputElement ? control.type : '',
      name: control.name,
      id: control.id,
      labels: Array.from(control.labels ?? [], (label) => label.textContent ?? ''),
      autocomplete: control.getAttribute('autocomplete') ?? '',
      visible:
        control.checkVisibility({ visibilityProperty: true, opacityProperty: true }) &&
        control.getBoundingClientRect().right > 0 &&
        control.closest('[aria-hidden="true"]') === null,
    })),
  );
  return described.map((control) => {
    const token = control.autocomplete.trim().split(/\s+/).pop() ?? '';
    let autofill = '';
    if (['hidden', 'submit', 'radio', 'checkbox'].includes(control.type)) autofill = '';
    else if (token in PROFILE) autofill = token;
    else {
      for (const [type, pattern] of AUTOFILL_PATTERNS) {
        if ([control.name, control.id, ...control.labels].some((text) => pattern.test(text))) {
          autofill = type;
          break;
        }
      }
    }
    return { ...control, autofill };
  });
}

let server: SiteServer;
let data: ReturnType<typeof tempDataDir>;

test.beforeAll(async () => {
  data = tempDataDir();
  // `stored` mode: the lead is accepted once stored, so its status says only accepted or spam.
  server = await startSiteServer({ DATA_DIR: data.dir, LEAD_ACCEPT: 'stored' });
});

test.afterAll(async () => {
  await server?.stop();
  data?.remove();
});

// eslint-disable-next-line no-empty-pattern
test.afterEach(async ({}, testInfo) => attachServerLogsOnFailure(testInfo));

test.beforeEach(() => {
  // Several page loads and a submission per test: a loaded machine needs the room.
  test.slow();
});

async function openForm(page: Page, path: string): Promise<Locator> {
  await page.goto(server.url + path);
  // The form island hydrates when the browser is idle (client:idle), slow on a busy machine.
  await expect(page.locator('html[data-ready]')).toBeAttached({ timeout: 20_000 });
  const form = page.locator('form[data-quote-form]');
  await expect(form.locator('input[name="idempotency_key"]')).not.toHaveValue('');
  return form;
}

const FORMS = [
  { path: '/', source: 'hero_form', button: 'Call Me Back' },
  { path: '/contact', source: 'contact_form', button: 'Send My Enquiry' },
  { path: '/quote', source: 'quote_form', button: 'Request My Free Quote' },
] as const;

test('the spam trap is a field no autofill or password manager fills', async ({ page }) => {
  for (const { path } of FORMS) {
    const form = await openForm(page, path);
    const trap = (await classify(form)).find((control) => control.name === HONEYPOT_FIELD);
    expect(trap, `${path}: the trap is in the form`).toBeDefined();
    expect(trap?.visible, `${path}: the trap is hidden from people`).toBe(false);
    expect(trap?.autofill, `${path}: no filler recognises the trap`).toBe('');
  }
});

for (const { path, source, button } of FORMS) {
  test(`${source}: an enquiry whose every field was filled by autofill is accepted, not spam`, async ({
    page,
  }) => {
    const token = uniqueToken();
    const form = await openForm(page, path);
    const controls = await classify(form);
    const fields = form.locator('input, textarea, select');

    for (const control of controls.filter((entry) => entry.autofill)) {
      // force: autofill reaches fields people cannot see or tab to.
      await fields.nth(control.index).fill(PROFILE[control.autofill]!(token), { force: true });
    }
    // The fields no filler knows, as the person completes them.
    for (const control of controls.filter((entry) => entry.visible && !entry.autofill)) {
      const field = fields.nth(control.index);
      if (control.tag === 'select') await field.selectOption({ index: 1 });
      else if (control.tag === 'textarea') await field.fill(`New shower screen, ${token}.`);
      // The urgent choice is optional and left as it is: not every enquiry is urgent.
      else if (control.name === URGENT_FIELD) continue;
      else if (control.type === 'checkbox' || control.type === 'radio') await field.check();
      else if (control.type !== 'hidden' && control.type !== 'submit') {
        throw new Error(`${path}: visible field "${control.name}" was left empty`);
      }
    }
    // Every field a person can see now has a value.
    for (const control of controls.filter((entry) => entry.visible && entry.type !== 'radio')) {
      const field = fields.nth(control.index);
      if (control.name === URGENT_FIELD) await expect(field).not.toBeChecked();
      else if (control.type === 'checkbox') await expect(field).toBeChecked();
      else await expect(field, `${path}: ${control.name}`).not.toHaveValue('');
    }

    await form.getByRole('button', { name: button }).click();
    await expect(page).toHaveURL(/\/thank-you$/);

    const leads = (await exportLeads({ DATA_DIR: data.dir })).filter((lead) =>
      lead.email.includes(token),
    );
    expect(leads).toHaveLength(1);
    expect(leads[0]).toMatchObject({ source, status: 'accepted' });
  });
}

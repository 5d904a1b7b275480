// @vitest-environment jsdom
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  act,
  cleanup,
  configure,
  fireEvent,
  render,
  screen,
  waitFor,
  within,
} from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  HONEYPOT_FIELD,
  INVALID_EMAIL_MESSAGE,
  LIMITS,
  REQUIRED_FIELDS_MESSAGE,
  SERVICE_OPTIONS,
  SUBMIT_FAILED_MESSAGE,
  UNEXPECTED_ERROR_MESSAGE,
  URGENT_LABEL,
} from '../../leads/intake/form-rules.ts';
import { LEAD_ACCEPTED_EVENT, type LeadFormResult } from '../../leads/intake/form-submission.ts';
import { API_ERROR_MESSAGES } from '../../leads/intake/receive-lead.server.ts';
import { conversionForThankYouVisit } from '../../browser/analytics.ts';
import { QUOTE_FORM_ATTRIBUTE } from '../layout/header-menus.ts';
import { CallbackForm } from './CallbackForm.tsx';
import { EnquiryForm } from './EnquiryForm.tsx';
import { submitLeadForm } from './submit-lead-form.ts';

// findBy… and waitFor wait on conditions; their limit is a ceiling for a
// loaded machine (a post goes to a real local server through the lazily
// loaded validator), not Testing Library's one second.
configure({ asyncUtilTimeout: 30_000 });

/** A promise the test settles itself, to hold a submission in flight. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

interface Posted {
  /** The path posted to. */
  path: string | undefined;
  fields: Record<string, string>;
  /** Every name posted, repeated names included. */
  names: string[];
  headers: IncomingHttpHeaders;
}

interface Answer {
  status: number;
  /** Sent as JSON unless it is a string. */
  body: unknown;
}

/**
 * A real HTTP server standing in for the site the form posts to (the
 * server's side is app/leads/intake/receive-lead.server.test.ts): it records each
 * post and answers with what the test's `answer` returns.
 */
let page: { server: Server; url: string };
let answer: (posted: Posted) => Answer | Promise<Answer>;
const posts: Posted[] = [];

beforeAll(async () => {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      const fields: Record<string, string> = {};
      for (const [name, value] of body) fields[name] ??= value;
      const posted = { path: req.url, fields, names: [...body.keys()], headers: req.headers };
      posts.push(posted);
      void Promise.resolve(answer(posted)).then(({ status, body: reply }) => {
        const json = typeof reply !== 'string';
        res.writeHead(status, {
          'Content-Type': json ? 'application/json' : 'text/html; charset=utf-8',
        });
        res.end(json ? JSON.stringify(reply) : reply);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  page = { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
});

afterAll(async () => {
  page.server.closeAllConnections();
  await new Promise((resolve) => page.server.close(resolve));
});

beforeEach(() => {
  posts.length = 0;
  answer = () => ({ status: 500, body: 'no answer set for this test' });
});

afterEach(() => {
  cleanup();
  delete window.gtag;
  delete window.dataLayer;
});

/** The stand-in page's address for `path`: what a page passes as the form's `action`. */
const at = (path: string) => `${page.url}${path}`;

/** The form on a page. */
function renderOnPage(form: ReactNode) {
  render(<main>{form}</main>);
  const element = document.querySelector('form');
  if (!element) throw new Error('no form rendered');
  return element;
}

const field = (form: HTMLElement, label: string) =>
  within(form).getByLabelText(label) as HTMLInputElement;

function fillCallback(form: HTMLElement, values: Partial<Record<string, string>> = {}) {
  const all = {
    'First name': 'Aroha',
    'Last name': 'Ngata',
    Email: 'aroha@example.co.nz',
    Phone: '021 555 0101',
    'Postal code': '3110',
    ...values,
  };
  for (const [label, value] of Object.entries(all)) {
    fireEvent.change(field(form, label), { target: { value } });
  }
}

function fillEnquiry(form: HTMLElement, values: Partial<Record<string, string>> = {}) {
  const all = {
    Name: 'Aroha Ngata',
    Email: 'aroha@example.co.nz',
    Phone: '021 555 0101',
    Message: 'A cracked pane in the lounge window.',
    ...values,
  };
  for (const [label, value] of Object.entries(all)) {
    fireEvent.change(field(form, label), { target: { value } });
  }
  fireEvent.change(within(form).getByLabelText('Service'), {
    target: { value: values.Service ?? 'Windows' },
  });
}

describe('browser constraints from the one set of rules', () => {
  it('call-back form: labelled fields with required, lengths, types, input modes and autocomplete', () => {
    const form = renderOnPage(<CallbackForm action="/" />);
    expect(form.hasAttribute(QUOTE_FORM_ATTRIBUTE)).toBe(true);
    expect(form.getAttribute('method')).toBe('post');
    const expectations: Array<[string, Record<string, string | null>]> = [
      [
        'First name',
        {
          name: 'firstName',
          type: 'text',
          autocomplete: 'given-name',
          maxlength: String(LIMITS.namePart.max),
        },
      ],
      [
        'Last name',
        {
          name: 'lastName',
          type: 'text',
          autocomplete: 'family-name',
          maxlength: String(LIMITS.namePart.max),
        },
      ],
      [
        'Email',
        {
          name: 'email',
          type: 'email',
          autocomplete: 'email',
          inputmode: 'email',
          maxlength: '254',
          // The browser's own bubble would hide the message of docs/forms.md#email-pattern.
          pattern: null,
        },
      ],
      [
        'Phone',
        { name: 'phone', type: 'tel', autocomplete: 'tel', minlength: '8', maxlength: '20' },
      ],
      [
        'Postal code',
        { name: 'postcode', autocomplete: 'postal-code', maxlength: String(LIMITS.postcode.max) },
      ],
    ];
    for (const [label, attributes] of expectations) {
      const input = field(form, label);
      expect(input.required, label).toBe(true);
      for (const [attribute, value] of Object.entries(attributes)) {
        expect(input.getAttribute(attribute), `${label} ${attribute}`).toBe(value);
      }
    }
    const home = within(form).getByRole('radio', { name: 'Home Glass' }) as HTMLInputElement;
    const business = within(form).getByRole('radio', {
      name: 'Business Glass',
    }) as HTMLInputElement;
    expect(home.checked).toBe(true);
    expect(business.checked).toBe(false);
    expect(home.name).toBe('serviceType');
  });

  it('enquiry form: the nine services in their documented order, name 2-100, phone 8-20, message up to 1000', () => {
    const form = renderOnPage(<EnquiryForm source="quote_form" action="/quote" />);
    const name = field(form, 'Name');
    expect([name.required, name.minLength, name.maxLength, name.autocomplete]).toEqual([
      true,
      2,
      100,
      'name',
    ]);
    const phone = field(form, 'Phone');
    expect([phone.type, phone.required, phone.minLength, phone.maxLength]).toEqual([
      'tel',
      true,
      8,
      20,
    ]);
    expect(field(form, 'Email').type).toBe('email');
    const message = within(form).getByLabelText('Message') as HTMLTextAreaElement;
    expect([message.required, message.maxLength]).toEqual([true, 1000]);
    const service = within(form).getByLabelText('Service') as HTMLSelectElement;
    expect(service.required).toBe(true);
    expect(service.value).toBe('');
    expect([...service.options].slice(1).map((option) => option.value)).toEqual([
      ...SERVICE_OPTIONS,
    ]);
    expect(within(form).getByRole('button', { name: 'Request My Free Quote' })).toBeTruthy();
  });

  it('contact page form says so on its button', () => {
    const form = renderOnPage(<EnquiryForm source="contact_form" action="/contact" />);
    expect(within(form).getByRole('button', { name: 'Send My Enquiry' })).toBeTruthy();
  });

  it('honeypot: off-screen, unreachable by keyboard, hidden from assistive technology', () => {
    const form = renderOnPage(<EnquiryForm source="quote_form" action="/quote" />);
    const trap = form.querySelector<HTMLInputElement>(`input[name="${HONEYPOT_FIELD}"]`)!;
    expect(trap.tabIndex).toBe(-1);
    expect(trap.getAttribute('autocomplete')).toBe('off');
    expect(trap.closest('[aria-hidden="true"]')).toBeTruthy();
    expect(trap.labels?.[0]?.textContent).toBe('Leave this field empty');
    // The header's 'Request an Estimate' focuses the first visible field, not the trap.
    expect(form.querySelector('input:not([type=hidden])')?.getAttribute('name')).toBe('name');
  });

  it('an idempotency key is set when the form appears', async () => {
    const form = renderOnPage(<CallbackForm action="/" />);
    const key = form.querySelector<HTMLInputElement>('input[name="idempotency_key"]')!;
    await waitFor(() => expect(key.value).toMatch(/^[A-Za-z0-9_-]{8,100}$/));
  });

  it('running with JavaScript, the forms check themselves (noValidate), keeping the constraints for no-JS', () => {
    for (const element of [
      <CallbackForm key="c" action="/" />,
      <EnquiryForm key="e" source="quote_form" action="/quote" />,
    ]) {
      const form = renderOnPage(element);
      expect(form.noValidate).toBe(true);
      expect(field(form, 'Email').required).toBe(true);
      cleanup();
    }
  });

  it('a new idempotency key once the enquiry sent with it is accepted, and on a return from the back-forward cache', async () => {
    const form = renderOnPage(<EnquiryForm source="quote_form" action="/quote" />);
    const key = form.querySelector<HTMLInputElement>('input[name="idempotency_key"]')!;
    await waitFor(() => expect(key.value).not.toBe(''));
    const first = key.value;

    // Another form's enquiry, or a page shown normally: the key stays.
    const dispatch = (event: Event) => act(() => void window.dispatchEvent(event));
    dispatch(new CustomEvent(LEAD_ACCEPTED_EVENT, { detail: 'someone-elses-key' }));
    dispatch(new PageTransitionEvent('pageshow', { persisted: false }));
    expect(key.value).toBe(first);

    dispatch(new CustomEvent(LEAD_ACCEPTED_EVENT, { detail: first }));
    const second = key.value;
    expect(second).toMatch(/^[A-Za-z0-9_-]{8,100}$/);
    expect(second).not.toBe(first);

    dispatch(new PageTransitionEvent('pageshow', { persisted: true }));
    expect(key.value).toMatch(/^[A-Za-z0-9_-]{8,100}$/);
    expect(key.value).not.toBe(second);
  });
});

describe('submission states', () => {
  it('disabled and Submitting... while it runs; the message in a red alert box under the button; the button comes back', async () => {
    let pending = deferred<Answer>();
    answer = () => pending.promise;
    const form = renderOnPage(<EnquiryForm source="quote_form" action={at('/quote')} />);
    fillEnquiry(form);

    fireEvent.submit(form);
    const busy = await within(form).findByRole('button', { name: 'Submitting...' });
    expect((busy as HTMLButtonElement).disabled).toBe(true);
    expect(within(form).queryByRole('alert')).toBeNull();

    await waitFor(() => expect(posts).toHaveLength(1));
    pending.resolve({
      status: 502,
      body: { ok: false, error: SUBMIT_FAILED_MESSAGE, fields: {}, values: {} },
    });
    const alert = await within(form).findByRole('alert');
    expect(alert.textContent).toBe(SUBMIT_FAILED_MESSAGE);
    const button = within(form).getByRole('button', { name: 'Request My Free Quote' });
    expect((button as HTMLButtonElement).disabled).toBe(false);
    // The message sits under the button.
    expect(button.compareDocumentPosition(alert) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    // Keyboard users are taken back to the button.
    await waitFor(() => expect(document.activeElement).toBe(button));

    // The next attempt starts without the old message.
    pending = deferred<Answer>();
    fireEvent.submit(form);
    await within(form).findByRole('button', { name: 'Submitting...' });
    expect(within(form).queryByRole('alert')).toBeNull();
    await waitFor(() => expect(posts).toHaveLength(2));
    pending.resolve({
      status: 400,
      body: {
        ok: false,
        error: REQUIRED_FIELDS_MESSAGE,
        fields: { name: REQUIRED_FIELDS_MESSAGE },
        values: {},
      },
    });
    expect((await within(form).findByRole('alert')).textContent).toBe(REQUIRED_FIELDS_MESSAGE);
    const name = field(form, 'Name');
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(name.getAttribute('aria-describedby')).toBe(within(form).getByRole('alert').id);
    await waitFor(() => expect(document.activeElement).toBe(name));
    expect(posts).toHaveLength(2);
  });

  it('a double click posts once', async () => {
    const pending = deferred<Answer>();
    answer = () => pending.promise;
    const form = renderOnPage(<EnquiryForm source="quote_form" action={at('/quote')} />);
    fillEnquiry(form);
    fireEvent.submit(form);
    fireEvent.submit(form);
    await waitFor(() => expect(posts).toHaveLength(1));
    pending.resolve({
      status: 502,
      body: { ok: false, error: SUBMIT_FAILED_MESSAGE, fields: {}, values: {} },
    });
    await within(form).findByRole('alert');
    expect(posts).toHaveLength(1);
  });

  it("what is posted, to /api/leads on the page's origin: the form fields, its name and the key; never the opt-in, even when ticked", async () => {
    answer = () => ({
      status: 502,
      body: { ok: false, error: SUBMIT_FAILED_MESSAGE, fields: {}, values: {} },
    });
    const form = renderOnPage(<CallbackForm action={at('/')} />);
    fillCallback(form);
    const optIn = within(form).getByRole('checkbox', { name: /offers/ }) as HTMLInputElement;
    expect(optIn.checked).toBe(false);
    fireEvent.click(optIn);
    expect(optIn.checked).toBe(true);
    fireEvent.click(within(form).getByRole('radio', { name: 'Business Glass' }));
    await waitFor(() =>
      expect(form.querySelector<HTMLInputElement>('input[name="idempotency_key"]')!.value).not.toBe(
        '',
      ),
    );

    fireEvent.submit(form);
    await within(form).findByRole('alert');
    expect(posts).toHaveLength(1);
    const { path, fields, names, headers } = posts[0]!;
    expect(path).toBe('/api/leads');
    expect(names.sort()).toEqual(
      [
        'email',
        'firstName',
        'form',
        'idempotency_key',
        'lastName',
        'phone',
        'postcode',
        'serviceType',
        HONEYPOT_FIELD,
      ].sort(),
    );
    expect(fields).toMatchObject({
      firstName: 'Aroha',
      lastName: 'Ngata',
      serviceType: 'Business Glass',
      [HONEYPOT_FIELD]: '',
      form: 'hero_form',
    });
    expect(Object.values(fields)).not.toContain('on');
    // As a browser posts the form; the answer it asks for is the difference.
    expect(headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(headers.accept).toBe('application/json');
  });

  it("a message rendered by the server for a plain post is shown with the visitor's values", () => {
    const result = {
      ok: false,
      error: INVALID_EMAIL_MESSAGE,
      fields: { email: INVALID_EMAIL_MESSAGE },
      values: {
        name: 'Aroha',
        email: 'aroha@',
        phone: '021 555 0101',
        service: 'Doors',
        message: 'Sticking door',
        idempotency_key: 'server-made-key-1',
      },
    } satisfies LeadFormResult;
    renderOnPage(<EnquiryForm source="quote_form" action="/quote" result={result} />);
    expect(screen.getByRole('alert').textContent).toBe(INVALID_EMAIL_MESSAGE);
    expect(field(document.body, 'Email').value).toBe('aroha@');
    expect(field(document.body, 'Email').getAttribute('aria-invalid')).toBe('true');
    expect(field(document.body, 'Name').value).toBe('Aroha');
    expect((screen.getByLabelText('Service') as HTMLSelectElement).value).toBe('Doors');
    expect((screen.getByLabelText('Message') as HTMLTextAreaElement).value).toBe('Sticking door');
    expect(document.querySelector<HTMLInputElement>('input[name="idempotency_key"]')!.value).toBe(
      'server-made-key-1',
    );
  });
});

describe('the urgent choice (docs/forms.md#urgent-choice)', () => {
  const forms = [
    ['home call-back', () => <CallbackForm action={at('/')} />, fillCallback],
    ['contact', () => <EnquiryForm source="contact_form" action={at('/contact')} />, fillEnquiry],
    ['quote', () => <EnquiryForm source="quote_form" action={at('/quote')} />, fillEnquiry],
  ] as const;
  const urgentBox = (form: HTMLElement) =>
    within(form).getByRole('checkbox', { name: `${URGENT_LABEL} (optional)` }) as HTMLInputElement;

  it.each(forms)('%s form: an optional checkbox with its label, unticked', (_name, make) => {
    const box = urgentBox(renderOnPage(make()));
    expect([box.name, box.value, box.checked, box.required]).toEqual([
      'urgent',
      'yes',
      false,
      false,
    ]);
    // The whole box is the label: a large target.
    expect(box.closest('label')?.className).toContain('lead-form__choice');
  });

  it.each(forms)(
    '%s form: ticked, it is posted as urgent=yes; unticked, not at all',
    async (_name, make, fill) => {
      answer = () => ({
        status: 502,
        body: { error: SUBMIT_FAILED_MESSAGE },
      });
      const form = renderOnPage(make());
      fill(form);
      fireEvent.submit(form);
      await within(form).findByRole('alert');
      fireEvent.click(urgentBox(form));
      fireEvent.submit(form);
      await waitFor(() => expect(posts).toHaveLength(2));
      expect(posts[0]?.names).not.toContain('urgent');
      expect(posts[1]?.fields.urgent).toBe('yes');
    },
  );

  it('a page rendered for a refused plain post keeps the box ticked', () => {
    const result = {
      ok: false,
      error: REQUIRED_FIELDS_MESSAGE,
      fields: { phone: REQUIRED_FIELDS_MESSAGE },
      values: { name: 'Aroha', urgent: 'yes' },
    } satisfies LeadFormResult;
    const form = renderOnPage(
      <EnquiryForm source="contact_form" action="/contact" result={result} />,
    );
    expect(urgentBox(form).checked).toBe(true);
  });
});

describe('the scripted submission: the client check, then the page, then analytics and /thank-you', () => {
  const recorded: unknown[][] = [];
  beforeEach(() => {
    recorded.length = 0;
    // A stand-in for the analytics tag: records what the site sends.
    window.gtag = (...args: unknown[]) => void recorded.push(args);
  });

  function formData(fields: Record<string, string>) {
    const data = new FormData();
    for (const [name, value] of Object.entries(fields)) data.append(name, value);
    return data;
  }

  const validEnquiry = {
    name: 'Aroha Ngata',
    email: 'Aroha@Example.co.nz',
    phone: '021 555 0101',
    service: 'Windows',
    message: 'Cracked pane',
  };

  const validCallback = {
    firstName: 'Aroha',
    lastName: 'Ngata',
    email: 'a@b.nz',
    phone: '021 555 0101',
    postcode: '3110',
    serviceType: 'Home Glass',
  };

  const accepted = (createdAt = '2025-03-01T01:02:03.456Z') => ({
    status: 201,
    body: { ok: true, created_at: createdAt },
  });

  it('blank (whitespace) fields: the required message, nothing sent', async () => {
    const result = await submitLeadForm(
      at('/quote'),
      formData({ ...validEnquiry, name: '   ' }),
      'quote_form',
    );
    expect(result).toEqual({
      ok: false,
      error: REQUIRED_FIELDS_MESSAGE,
      fields: { name: REQUIRED_FIELDS_MESSAGE },
      values: {},
    });
    expect(posts).toEqual([]);
  });

  it('a bad email: the email message, nothing sent', async () => {
    for (const email of ['aroha@example', 'aroha example@x.nz', '@example.co.nz']) {
      const result = await submitLeadForm(
        at('/quote'),
        formData({ ...validEnquiry, email }),
        'quote_form',
      );
      expect(result).toMatchObject({ ok: false, error: INVALID_EMAIL_MESSAGE });
    }
    const callback = await submitLeadForm(
      at('/'),
      formData({ ...validCallback, email: 'nope' }),
      'hero_form',
    );
    expect(callback).toMatchObject({ ok: false, error: INVALID_EMAIL_MESSAGE });
    expect(posts).toEqual([]);
  });

  it('success: form_submit and the conversion first, the form told of its key', async () => {
    answer = () => accepted();
    const heard: unknown[] = [];
    const onAccepted = (event: Event) => heard.push((event as CustomEvent).detail);
    window.addEventListener(LEAD_ACCEPTED_EVENT, onAccepted);
    const result = await submitLeadForm(
      at('/quote'),
      formData({ ...validEnquiry, idempotency_key: 'key-of-this-enquiry' }),
      'quote_form',
    );
    window.removeEventListener(LEAD_ACCEPTED_EVENT, onAccepted);
    expect(result).toEqual({ ok: true, created_at: '2025-03-01T01:02:03.456Z' });
    expect(heard).toEqual(['key-of-this-enquiry']);
    expect(recorded).toEqual([
      [
        'event',
        'form_submit',
        { event_category: 'engagement', event_label: 'quote_form', value: 1 },
      ],
      [
        'event',
        'conversion',
        { value: 1, currency: 'NZD', transaction_id: '2025-03-01T01:02:03.456Z' },
      ],
    ]);
  });

  it("the conversion's transaction id is handed to the thank-you visit that follows, and to no other", async () => {
    sessionStorage.clear();
    expect(conversionForThankYouVisit('visit-0')).toBeUndefined();
    answer = () => accepted();
    await submitLeadForm(at('/quote'), formData(validEnquiry), 'quote_form');
    // Only the timestamp is kept, nothing the visitor typed.
    expect(JSON.stringify({ ...sessionStorage })).not.toMatch(/aroha|021|cracked/i);
    expect(conversionForThankYouVisit('visit-1')).toBe('2025-03-01T01:02:03.456Z');
    // A reload of that visit keeps it (the platform de-duplicates it again) ...
    expect(conversionForThankYouVisit('visit-1')).toBe('2025-03-01T01:02:03.456Z');
    // ... a later visit that no submission led to has none.
    expect(conversionForThankYouVisit('visit-2')).toBeUndefined();
    sessionStorage.clear();
  });

  it('each form sends its own label', async () => {
    answer = () => accepted('x');
    await submitLeadForm(at('/contact'), formData(validEnquiry), 'contact_form');
    await submitLeadForm(at('/'), formData(validCallback), 'hero_form');
    expect(
      recorded
        .filter((args) => args[1] === 'form_submit')
        .map((args) => (args[2] as { event_label: string }).event_label),
    ).toEqual(['contact_form', 'hero_form']);
  });

  it('a broken analytics tag does not stop the visitor', async () => {
    window.gtag = () => {
      throw new Error('tag failed');
    };
    answer = () => accepted('x');
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const result = await submitLeadForm(at('/quote'), formData(validEnquiry), 'quote_form');
    expect(result).toEqual({ ok: true, created_at: 'x' });
    expect(errors).toHaveBeenCalled();
    errors.mockRestore();
  });

  it("the API's refusal is passed on as it is; no events", async () => {
    answer = () => ({ status: 429, body: { error: API_ERROR_MESSAGES.tooManyRequests } });
    const result = await submitLeadForm(at('/quote'), formData(validEnquiry), 'quote_form');
    expect(result).toEqual({
      ok: false,
      error: API_ERROR_MESSAGES.tooManyRequests,
      fields: {},
      values: {},
    });
    answer = () => ({
      status: 400,
      body: { error: INVALID_EMAIL_MESSAGE, fields: { email: INVALID_EMAIL_MESSAGE } },
    });
    expect(await submitLeadForm(at('/quote'), formData(validEnquiry), 'quote_form')).toEqual({
      ok: false,
      error: INVALID_EMAIL_MESSAGE,
      fields: { email: INVALID_EMAIL_MESSAGE },
      values: {},
    });
    expect(recorded).toEqual([]);
  });

  it('no answer from the server (network down): the unexpected-error message', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    // A port nothing listens on: the connection is refused.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const result = await submitLeadForm(
      `http://127.0.0.1:${port}/quote`,
      formData(validEnquiry),
      'quote_form',
    );
    expect(result).toEqual({ ok: false, error: UNEXPECTED_ERROR_MESSAGE, fields: {}, values: {} });
    expect(recorded).toEqual([]);
    errors.mockRestore();
  });

  it("an answer that is not the page's (a 403 of the origin check, an error page, a crash): the unexpected-error message", async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const answers: Answer[] = [
      { status: 403, body: { error: 'Submissions from other websites are not accepted.' } },
      { status: 500, body: '<!doctype html><title>Something went wrong</title>' },
      { status: 500, body: { ok: true, created_at: 'x' } },
    ];
    for (const next of answers) {
      answer = () => next;
      const result = await submitLeadForm(at('/quote'), formData(validEnquiry), 'quote_form');
      expect(result).toEqual({
        ok: false,
        error: UNEXPECTED_ERROR_MESSAGE,
        fields: {},
        values: {},
      });
    }
    expect(recorded).toEqual([]);
    errors.mockRestore();
  });

  it('in a page: the client message shows in the form and nothing reaches the server', async () => {
    const form = renderOnPage(<EnquiryForm source="quote_form" action={at('/quote')} />);
    fillEnquiry(form, { Phone: '          ' });
    fireEvent.submit(form);
    expect((await within(form).findByRole('alert')).textContent).toBe(REQUIRED_FIELDS_MESSAGE);
    expect(field(form, 'Phone').getAttribute('aria-invalid')).toBe('true');
    expect(posts).toEqual([]);
  });

  it('in a page: on success the events are sent and the form stays busy while the page leaves (no second post under the new key)', async () => {
    // The move itself (location.assign('/thank-you')) is a navigation jsdom
    // does not implement; the browser tests (e2e/forms.spec.ts) follow it.
    answer = () => accepted('x');
    const form = renderOnPage(<CallbackForm action={at('/')} />);
    fillCallback(form);
    fireEvent.submit(form);
    await waitFor(() =>
      expect(recorded.map((args) => args[1])).toEqual(['form_submit', 'conversion']),
    );
    const button = within(form).getByRole('button', { name: 'Submitting...' });
    expect((button as HTMLButtonElement).disabled).toBe(true);
    fireEvent.submit(form);
    expect(posts).toHaveLength(1);
    expect(within(form).queryByRole('alert')).toBeNull();

    // Shown again from the back-forward cache: the form can be used again.
    act(() => void window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true })));
    expect(within(form).getByRole('button', { name: 'Call Me Back' })).toBeTruthy();
  });
});

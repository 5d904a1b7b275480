// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import {
  createRoutesStub,
  type ActionFunctionArgs,
  type ClientActionFunctionArgs,
} from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  HONEYPOT_FIELD,
  INVALID_EMAIL_MESSAGE,
  LIMITS,
  REQUIRED_FIELDS_MESSAGE,
  SERVICE_OPTIONS,
  SUBMIT_FAILED_MESSAGE,
  UNEXPECTED_ERROR_MESSAGE,
} from '../../leads/form-rules.ts';
import { LEAD_ACCEPTED_EVENT, type LeadFormResult } from '../../leads/form-submission.ts';
import { conversionForThankYouVisit } from '../../lib/analytics.ts';
import { QUOTE_FORM_ATTRIBUTE } from '../layout/SiteHeader.tsx';
import { CallbackForm } from './CallbackForm.tsx';
import { EnquiryForm } from './EnquiryForm.tsx';
import { deferredCallbackClientAction } from './DeferredCallbackForm.tsx';
import {
  callbackClientAction,
  leadFormClientAction,
  quoteClientAction,
} from './lead-form-client-action.ts';

afterEach(() => {
  cleanup();
  delete window.gtag;
  delete window.dataLayer;
});

/** A promise the test settles itself, to hold a submission in flight. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

interface Posted {
  fields: Record<string, string>;
  /** Every name posted, repeated names included. */
  names: string[];
}

async function readPosted(request: Request): Promise<Posted> {
  const formData = await request.formData();
  const names = [...formData.keys()];
  const fields: Record<string, string> = {};
  for (const [name, value] of formData.entries()) fields[name] ??= String(value);
  return { fields, names };
}

/** The form on a page of a memory router, with `action` standing in for the route's action. */
function renderOnPage(
  form: ReactNode,
  action: (args: ActionFunctionArgs) => Promise<unknown> | unknown,
) {
  const Stub = createRoutesStub([
    { path: '/quote', Component: () => <main>{form}</main>, action },
    { path: '/thank-you', Component: () => <h1>Thank you page</h1> },
  ]);
  render(<Stub initialEntries={['/quote']} />);
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

describe('browser constraints from the one set of rules (SPEC §5)', () => {
  it('call-back form: labelled fields with required, lengths, types, input modes and autocomplete', () => {
    const form = renderOnPage(<CallbackForm />, () => null);
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
          // The browser's own bubble would hide SPEC §8's message (issue 12).
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

  it('enquiry form: the nine services in SPEC order, name 2-100, phone 8-20, message up to 1000', () => {
    const form = renderOnPage(<EnquiryForm source="quote_form" />, () => null);
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
    const form = renderOnPage(<EnquiryForm source="contact_form" />, () => null);
    expect(within(form).getByRole('button', { name: 'Send My Enquiry' })).toBeTruthy();
  });

  it('honeypot: off-screen, unreachable by keyboard, hidden from assistive technology', () => {
    const form = renderOnPage(<EnquiryForm source="quote_form" />, () => null);
    const trap = form.querySelector<HTMLInputElement>(`input[name="${HONEYPOT_FIELD}"]`)!;
    expect(trap.tabIndex).toBe(-1);
    expect(trap.getAttribute('autocomplete')).toBe('off');
    expect(trap.closest('[aria-hidden="true"]')).toBeTruthy();
    expect(trap.labels?.[0]?.textContent).toBe('Leave this field empty');
    // The header's 'Request an Estimate' focuses the first visible field, not the trap.
    expect(form.querySelector('input:not([type=hidden])')?.getAttribute('name')).toBe('name');
  });

  it('an idempotency key is set when the form appears', async () => {
    const form = renderOnPage(<CallbackForm />, () => null);
    const key = form.querySelector<HTMLInputElement>('input[name="idempotency_key"]')!;
    await waitFor(() => expect(key.value).toMatch(/^[A-Za-z0-9_-]{8,100}$/));
  });

  it('running with JavaScript, the forms check themselves (noValidate), keeping the constraints for no-JS', () => {
    for (const element of [<CallbackForm key="c" />, <EnquiryForm key="e" source="quote_form" />]) {
      const form = renderOnPage(element, () => null);
      expect(form.noValidate).toBe(true);
      expect(field(form, 'Email').required).toBe(true);
      cleanup();
    }
  });

  it('a new idempotency key once the enquiry sent with it is accepted, and on a return from the back-forward cache', async () => {
    const form = renderOnPage(<EnquiryForm source="quote_form" />, () => null);
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

describe('submission states (SPEC §4)', () => {
  it('disabled and Submitting... while it runs; the message in a red alert box under the button; the button comes back', async () => {
    let pending = deferred<LeadFormResult>();
    const action = vi.fn(() => pending.promise);
    const form = renderOnPage(<EnquiryForm source="quote_form" />, action);
    fillEnquiry(form);

    fireEvent.submit(form);
    const busy = await within(form).findByRole('button', { name: 'Submitting...' });
    expect((busy as HTMLButtonElement).disabled).toBe(true);
    expect(within(form).queryByRole('alert')).toBeNull();

    await act(async () =>
      pending.resolve({ ok: false, error: SUBMIT_FAILED_MESSAGE, fields: {}, values: {} }),
    );
    const alert = await within(form).findByRole('alert');
    expect(alert.textContent).toBe(SUBMIT_FAILED_MESSAGE);
    const button = within(form).getByRole('button', { name: 'Request My Free Quote' });
    expect((button as HTMLButtonElement).disabled).toBe(false);
    // The message sits under the button.
    expect(button.compareDocumentPosition(alert) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    // Keyboard users are taken back to the button.
    expect(document.activeElement).toBe(button);

    // The next attempt starts without the old message.
    pending = deferred<LeadFormResult>();
    fireEvent.submit(form);
    await within(form).findByRole('button', { name: 'Submitting...' });
    expect(within(form).queryByRole('alert')).toBeNull();
    await act(async () =>
      pending.resolve({
        ok: false,
        error: REQUIRED_FIELDS_MESSAGE,
        fields: { name: REQUIRED_FIELDS_MESSAGE },
        values: {},
      }),
    );
    expect((await within(form).findByRole('alert')).textContent).toBe(REQUIRED_FIELDS_MESSAGE);
    const name = field(form, 'Name');
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(name.getAttribute('aria-describedby')).toBe(within(form).getByRole('alert').id);
    expect(document.activeElement).toBe(name);
    expect(action).toHaveBeenCalledTimes(2);
  });

  it('what is posted: the form fields, js=1 and the key; never the opt-in, even when ticked', async () => {
    const posted = deferred<Posted>();
    const form = renderOnPage(<CallbackForm />, async ({ request }) => {
      posted.resolve(await readPosted(request));
      return { ok: false, error: SUBMIT_FAILED_MESSAGE, fields: {}, values: {} };
    });
    fillCallback(form);
    const optIn = within(form).getByRole('checkbox') as HTMLInputElement;
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
    const { fields, names } = await posted.promise;
    expect(names.sort()).toEqual(
      [
        'email',
        'firstName',
        'idempotency_key',
        'js',
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
      js: '1',
    });
    expect(Object.values(fields)).not.toContain('on');
  });

  it("a message rendered by the server for a plain post is shown with the visitor's values", () => {
    const Stub = createRoutesStub([
      {
        path: '/quote',
        Component: () => <EnquiryForm source="quote_form" />,
        action: () => null,
      },
    ]);
    render(
      <Stub
        initialEntries={['/quote']}
        hydrationData={{
          actionData: {
            '0': {
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
            } satisfies LeadFormResult,
          },
        }}
      />,
    );
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

describe('the client action: the client check, then the server, then analytics and /thank-you', () => {
  const recorded: unknown[][] = [];
  beforeEach(() => {
    recorded.length = 0;
    // A stand-in for the analytics tag: records what the site sends.
    window.gtag = (...args: unknown[]) => void recorded.push(args);
  });

  function clientArgs(fields: Record<string, string>, server: () => Promise<unknown>) {
    return {
      request: new Request('http://localhost/quote', {
        method: 'POST',
        body: new URLSearchParams(fields),
      }),
      serverAction: server,
      params: {},
    } as unknown as ClientActionFunctionArgs;
  }

  const validEnquiry = {
    name: 'Aroha Ngata',
    email: 'Aroha@Example.co.nz',
    phone: '021 555 0101',
    service: 'Windows',
    message: 'Cracked pane',
  };

  it('blank (whitespace) fields: the required message, nothing sent', async () => {
    const server = vi.fn();
    const result = await quoteClientAction(clientArgs({ ...validEnquiry, name: '   ' }, server));
    expect(result).toEqual({
      ok: false,
      error: REQUIRED_FIELDS_MESSAGE,
      fields: { name: REQUIRED_FIELDS_MESSAGE },
      values: {},
    });
    expect(server).not.toHaveBeenCalled();
  });

  it('a bad email: the email message, nothing sent', async () => {
    const server = vi.fn();
    for (const email of ['aroha@example', 'aroha example@x.nz', '@example.co.nz']) {
      const result = await quoteClientAction(clientArgs({ ...validEnquiry, email }, server));
      expect(result).toMatchObject({ ok: false, error: INVALID_EMAIL_MESSAGE });
    }
    const callback = await callbackClientAction(
      clientArgs(
        { firstName: 'A', lastName: 'N', email: 'nope', phone: '021 555 0101', postcode: '3110' },
        server,
      ),
    );
    expect(callback).toMatchObject({ ok: false, error: INVALID_EMAIL_MESSAGE });
    expect(server).not.toHaveBeenCalled();
  });

  it("the home page's deferred client action is the same check", async () => {
    const server = vi.fn();
    const result = await deferredCallbackClientAction(
      clientArgs(
        { firstName: ' ', lastName: 'N', email: 'a@b.nz', phone: '021 555 0101', postcode: '3110' },
        server,
      ),
    );
    expect(result).toMatchObject({ ok: false, error: REQUIRED_FIELDS_MESSAGE });
    expect(server).not.toHaveBeenCalled();
  });

  it('success: form_submit and the conversion first, the form told of its key, then the move to /thank-you', async () => {
    const server = vi.fn(async () => ({ ok: true, created_at: '2025-03-01T01:02:03.456Z' }));
    const accepted: unknown[] = [];
    const onAccepted = (event: Event) => accepted.push((event as CustomEvent).detail);
    window.addEventListener(LEAD_ACCEPTED_EVENT, onAccepted);
    const outcome = await quoteClientAction(
      clientArgs({ ...validEnquiry, idempotency_key: 'key-of-this-enquiry' }, server),
    ).catch((thrown: unknown) => thrown);
    window.removeEventListener(LEAD_ACCEPTED_EVENT, onAccepted);
    expect(accepted).toEqual(['key-of-this-enquiry']);
    expect(outcome).toBeInstanceOf(Response);
    expect((outcome as Response).headers.get('Location')).toBe('/thank-you');
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
    const server = async () => ({ ok: true, created_at: '2025-03-01T01:02:03.456Z' });
    await quoteClientAction(clientArgs(validEnquiry, server)).catch(() => undefined);
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
    const server = async () => ({ ok: true, created_at: 'x' });
    const contact = leadFormClientAction('enquiry', 'contact_form');
    await contact(clientArgs(validEnquiry, server)).catch(() => undefined);
    await callbackClientAction(
      clientArgs(
        {
          firstName: 'Aroha',
          lastName: 'Ngata',
          email: 'a@b.nz',
          phone: '021 555 0101',
          postcode: '3110',
          serviceType: 'Home Glass',
        },
        server,
      ),
    ).catch(() => undefined);
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
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const outcome = await quoteClientAction(
      clientArgs(validEnquiry, async () => ({ ok: true, created_at: 'x' })),
    ).catch((thrown: unknown) => thrown);
    expect((outcome as Response).headers.get('Location')).toBe('/thank-you');
    expect(errors).toHaveBeenCalled();
    errors.mockRestore();
  });

  it("the server's refusal is passed on as it is; no events", async () => {
    const refusal = { ok: false, error: SUBMIT_FAILED_MESSAGE, fields: {}, values: {} };
    const result = await quoteClientAction(clientArgs(validEnquiry, async () => refusal));
    expect(result).toEqual(refusal);
    expect(recorded).toEqual([]);
  });

  it('no answer from the server (network down, a crash): the unexpected-error message', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const result = await quoteClientAction(
      clientArgs(validEnquiry, async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    expect(result).toEqual({ ok: false, error: UNEXPECTED_ERROR_MESSAGE, fields: {}, values: {} });
    errors.mockRestore();
  });

  it('in a page: the client message shows in the form and nothing reaches the server', async () => {
    const server = vi.fn();
    const form = renderOnPage(<EnquiryForm source="quote_form" />, (args) =>
      quoteClientAction({ ...args, serverAction: server } as unknown as ClientActionFunctionArgs),
    );
    fillEnquiry(form, { Phone: '          ' });
    fireEvent.submit(form);
    expect((await within(form).findByRole('alert')).textContent).toBe(REQUIRED_FIELDS_MESSAGE);
    expect(field(form, 'Phone').getAttribute('aria-invalid')).toBe('true');
    expect(server).not.toHaveBeenCalled();
  });

  it('in a page: success lands on /thank-you', async () => {
    const form = renderOnPage(<CallbackForm />, (args) =>
      callbackClientAction({
        ...args,
        serverAction: async () => ({ ok: true, created_at: 'x' }),
      } as unknown as ClientActionFunctionArgs),
    );
    fillCallback(form);
    fireEvent.submit(form);
    expect(await screen.findByRole('heading', { name: 'Thank you page' })).toBeTruthy();
  });
});

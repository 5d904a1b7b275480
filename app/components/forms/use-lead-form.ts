import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useActionData, useFetcher, useFormAction } from 'react-router';
import {
  LEAD_ACCEPTED_EVENT,
  SCRIPTED_SUBMIT_FIELD,
  type LeadFormResult,
  type LeadFormValues,
} from '../../leads/form-submission.ts';
import { useHydrated } from '../../lib/use-hydrated.ts';
import { QUOTE_FORM_ATTRIBUTE } from '../layout/SiteHeader.tsx';
import { preloadLeadValidation } from './lead-form-validation.ts';

/** The hidden field that lets the lead service recognise a repeated submission. */
export const IDEMPOTENCY_KEY_FIELD = 'idempotency_key';

/** A fresh key for one form on the page (8 to 100 of [A-Za-z0-9_-], schema.ts). */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // randomUUID needs a secure context; getRandomValues does not.
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) =>
    byte.toString(16).padStart(2, '0'),
  ).join('');
}

type FailedResult = Extract<LeadFormResult, { ok: false }>;

export interface FieldState {
  'aria-invalid'?: true;
  'aria-describedby'?: string;
}

/**
 * The states of a lead form (SPEC §4), shared by the three forms.
 *
 * With JavaScript the form submits through a fetcher to its route's action
 * (the route's clientAction checks it first, then calls the server): while
 * that runs the form is `busy` (button disabled, 'Submitting...') and the
 * last message is hidden, so every attempt starts without an error; a
 * failure brings the message back and the button with it; success leaves
 * for /thank-you. Without JavaScript the browser posts the same form to the
 * same action, and a failure comes back as the page rendered with the
 * message and the visitor's values (`values`).
 *
 * Once hydrated the form is `noValidate`: the client check runs the form's
 * zod schema and shows SPEC §8's message in the red box, where the browser
 * would show its own bubble. The prerendered form keeps the browser's
 * constraints for the moment before hydration and for no JavaScript; the
 * server then answers with the same messages.
 */
export function useLeadForm() {
  const fetcher = useFetcher<LeadFormResult>();
  // Set only when the page was rendered for a plain (no-JavaScript) post.
  const pageResult = useActionData() as LeadFormResult | undefined;
  const formRef = useRef<HTMLFormElement>(null);
  const keyRef = useRef<HTMLInputElement>(null);
  const errorId = useId();
  // Pages are prerendered from '/quote/'; a plain post there would be
  // redirected (301) to '/quote' and lose its body, so post to the one address.
  const action = useFormAction().replace(/(.)\/(\?|$)/, '$1$2');

  const busy = fetcher.state !== 'idle';
  const latest = fetcher.data ?? pageResult;
  const problem: FailedResult | undefined = !busy && latest && !latest.ok ? latest : undefined;
  const values: LeadFormValues = pageResult && !pageResult.ok ? pageResult.values : {};
  const hydrated = useHydrated();
  // React's, not the DOM's: a re-render would reset a hidden input's value
  // set behind React's back to its defaultValue.
  const [idempotencyKey, setIdempotencyKey] = useState(values.idempotency_key ?? '');

  // One key per enquiry (SPEC: a double click or a retried request is stored
  // and delivered once). A page rendered for a plain post brings its own. A
  // new one after each accepted enquiry, and whenever the browser shows the
  // page again from its back-forward cache: the form there may hold the key
  // of an enquiry already sent (issue 10 item 8).
  useEffect(() => {
    const renewKey = () => setIdempotencyKey(newIdempotencyKey());
    if (!keyRef.current?.value) renewKey();
    const onAccepted = (event: Event) => {
      if ((event as CustomEvent<unknown>).detail === keyRef.current?.value) renewKey();
    };
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) renewKey();
    };
    window.addEventListener(LEAD_ACCEPTED_EVENT, onAccepted);
    window.addEventListener('pageshow', onPageShow);
    return () => {
      window.removeEventListener(LEAD_ACCEPTED_EVENT, onAccepted);
      window.removeEventListener('pageshow', onPageShow);
    };
  }, []);

  // After a failed attempt, take keyboard and screen-reader users to the
  // first field to correct, or back to the button (it lost focus while disabled).
  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data || fetcher.data.ok) return;
    const form = formRef.current;
    const target =
      form?.querySelector<HTMLElement>('[aria-invalid="true"]') ??
      form?.querySelector<HTMLElement>('button[type="submit"]');
    target?.focus();
  }, [fetcher.state, fetcher.data]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const formData = new FormData(event.currentTarget);
    formData.set(SCRIPTED_SUBMIT_FIELD, '1');
    if (!formData.get(IDEMPOTENCY_KEY_FIELD)) {
      const key = newIdempotencyKey();
      setIdempotencyKey(key);
      formData.set(IDEMPOTENCY_KEY_FIELD, key);
    }
    // The page moves on after success: reloading its data first would only delay that.
    void fetcher.submit(formData, { method: 'post', defaultShouldRevalidate: false });
  };

  /** aria-invalid and the link to the message, for a field the last check refused. */
  const fieldState = (name: string): FieldState =>
    problem?.fields[name] ? { 'aria-invalid': true, 'aria-describedby': errorId } : {};

  return {
    Form: fetcher.Form,
    formProps: {
      ref: formRef,
      method: 'post' as const,
      action,
      noValidate: hydrated,
      onSubmit,
      // Fetch the validator while the visitor types, not when they submit.
      onFocus: preloadLeadValidation,
      [QUOTE_FORM_ATTRIBUTE]: '',
    },
    keyRef,
    idempotencyKey,
    busy,
    problem,
    errorId,
    values,
    fieldState,
  };
}

/** What useLeadForm gives a form: its state, its fetcher's Form and the field helpers. */
export type LeadForm = ReturnType<typeof useLeadForm>;

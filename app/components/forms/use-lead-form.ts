import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { URGENT_FIELD, URGENT_VALUE } from '../../leads/intake/form-rules.ts';
import {
  LEAD_ACCEPTED_EVENT,
  thankYouPath,
  type LeadFormResult,
  type LeadFormValues,
} from '../../leads/intake/form-submission.ts';
import type { FormSource } from '../../browser/analytics.ts';
import { useHydrated } from '../use-hydrated.ts';
import { QUOTE_FORM_ATTRIBUTE } from '../layout/header-menus.ts';
import { preloadLeadValidation } from './lead-form-validation.ts';
import { startProofOfWork } from './proof-of-work.ts';
import { submitLeadForm } from './submit-lead-form.ts';

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

/** What the page gives a lead form: where it posts, and the answer it was rendered with. */
export interface LeadFormProps {
  /**
   * The page's own path, which answers the form's plain post (without
   * JavaScript); the script posts to /api/leads on its origin. The exact path: pages are prerendered from '/quote/', and a
   * plain post there would be redirected (301) to '/quote' and lose its body.
   */
  action: string;
  /** The server's answer when the page was rendered for a plain (no-JavaScript) post. */
  result?: LeadFormResult | undefined;
}

/**
 * The states of a lead form (docs/forms.md#submission-states), shared by the
 * three forms. No router: everything comes in as props, so the form works the
 * same on any page layer.
 *
 * With JavaScript the form submits itself (submit-lead-form.ts: the client
 * check, then a post to POST /api/leads): while that runs the form
 * is `busy` (button disabled, 'Submitting...') and the last message is
 * hidden, so every attempt starts without an error; a failure brings the
 * message back and the button with it; success leaves for /thank-you, or
 * /thank-you/urgent for an urgent enquiry (the
 * form stays busy until the page has gone, so a second click cannot send the
 * enquiry again under the new key). Without JavaScript the browser posts the
 * same form to the same page, and a failure comes back as the page rendered
 * with the message and the visitor's values (`result`).
 *
 * Once hydrated the form is `noValidate`: the client check runs the form's
 * zod schema and shows the message of docs/forms.md#messages in the red box, where the browser
 * would show its own bubble. The prerendered form keeps the browser's
 * constraints for the moment before hydration and for no JavaScript; the
 * server then answers with the same messages.
 */
export function useLeadForm(
  source: FormSource,
  { action, result }: LeadFormProps,
  {
    beforePost,
  }: {
    /**
     * Completes what a scripted submission sends from the form's fields:
     * the photo picker puts in the photos it holds (use-photo-picker.ts).
     */
    beforePost?: (formData: FormData) => void;
  } = {},
) {
  const formRef = useRef<HTMLFormElement>(null);
  const keyRef = useRef<HTMLInputElement>(null);
  const errorId = useId();
  const [busy, setBusy] = useState(false);
  // Set at once, not at the next render: a double click must not post twice.
  const busyRef = useRef(false);
  // The latest answer: the page's at first, then that of each scripted attempt.
  const [latest, setLatest] = useState<LeadFormResult | undefined>(result);
  // Counts failed scripted attempts, to move focus after each one.
  const [failures, setFailures] = useState(0);

  const problem: FailedResult | undefined = !busy && latest && !latest.ok ? latest : undefined;
  const values: LeadFormValues = result && !result.ok ? result.values : {};
  const hydrated = useHydrated();
  // React's, not the DOM's: a re-render would reset a hidden input's value
  // set behind React's back to its defaultValue.
  const [idempotencyKey, setIdempotencyKey] = useState(values.idempotency_key ?? '');

  // One key per enquiry (docs/forms.md#what-a-submission-does: a double
  // click or a retried request is stored and delivered once). A page
  // rendered for a plain post brings its own. A new one after each accepted
  // enquiry, and whenever the browser shows the page again from its
  // back-forward cache: the form there may hold the key of an enquiry
  // already sent (the server would take a new enquiry under it for that
  // one), and may have been left busy for /thank-you.
  useEffect(() => {
    const renewKey = () => setIdempotencyKey(newIdempotencyKey());
    if (!keyRef.current?.value) renewKey();
    const onAccepted = (event: Event) => {
      if ((event as CustomEvent<unknown>).detail === keyRef.current?.value) renewKey();
    };
    const onPageShow = (event: PageTransitionEvent) => {
      if (!event.persisted) return;
      renewKey();
      busyRef.current = false;
      setBusy(false);
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
    if (failures === 0) return;
    const form = formRef.current;
    const target =
      form?.querySelector<HTMLElement>('[aria-invalid="true"]') ??
      form?.querySelector<HTMLElement>('button[type="submit"]');
    target?.focus();
  }, [failures]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busyRef.current) return;
    const formData = new FormData(event.currentTarget);
    beforePost?.(formData);
    if (!formData.get(IDEMPOTENCY_KEY_FIELD)) {
      const key = newIdempotencyKey();
      setIdempotencyKey(key);
      formData.set(IDEMPOTENCY_KEY_FIELD, key);
    }
    busyRef.current = true;
    setBusy(true);
    void submitLeadForm(action, formData, source).then((answer) => {
      if (answer.ok) {
        // docs/operations.md#urgent-enquiries: an urgent enquiry's own page.
        window.location.assign(thankYouPath(formData.get(URGENT_FIELD) === URGENT_VALUE));
        return;
      }
      busyRef.current = false;
      setBusy(false);
      setLatest(answer);
      setFailures((count) => count + 1);
    });
  };

  /** aria-invalid and the link to the message, for a field the last check refused. */
  const fieldState = (name: string): FieldState =>
    problem?.fields[name] ? { 'aria-invalid': true, 'aria-describedby': errorId } : {};

  return {
    formProps: {
      ref: formRef,
      method: 'post' as const,
      action,
      noValidate: hydrated,
      onSubmit,
      // Fetch the validator and work out the proof of work while the
      // visitor types, not when they submit (nor when the page loads).
      onFocus: onFormFocus,
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

/** The visitor is in a form: what its submission will need is got ready. */
function onFormFocus(): void {
  preloadLeadValidation();
  startProofOfWork();
}

/** What useLeadForm gives a form: its state, its form element's props and the field helpers. */
export type LeadForm = ReturnType<typeof useLeadForm>;

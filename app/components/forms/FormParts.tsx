import type { ReactNode, RefObject } from 'react';
import {
  HONEYPOT_FIELD,
  LIMITS,
  URGENT_FIELD,
  URGENT_LABEL,
  URGENT_VALUE,
} from '../../leads/intake/form-rules.ts';
import { IDEMPOTENCY_KEY_FIELD, type FieldState, type LeadForm } from './use-lead-form.ts';

/** A visible label above its control, with an optional hint below it. */
export function Field({
  id,
  label,
  hint,
  children,
  wide = false,
}: {
  /** id of the control the label names. */
  id: string;
  label: ReactNode;
  /** Short help under the control; give the control aria-describedby={`${id}-hint`}. */
  hint?: ReactNode;
  children: ReactNode;
  /** Spans both columns of a two-column form. */
  wide?: boolean;
}) {
  return (
    <div className={wide ? 'lead-form__field lead-form__field--wide' : 'lead-form__field'}>
      <label className="lead-form__label" htmlFor={id}>
        {label}
      </label>
      {children}
      {hint ? (
        <p className="lead-form__hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** A control both lead forms share: its id, the value to show again, its error state. */
interface SharedFieldProps {
  id: string;
  defaultValue: string | undefined;
  state: FieldState;
}

/**
 * The e-mail field of every lead form (docs/forms.md#validation: required, email type). The
 * text@text.text rule is checked on submit, with its message in docs/forms.md#messages (see
 * EMAIL_PATTERN), not by a `pattern` the browser would answer itself.
 */
export function EmailField({ id, defaultValue, state }: SharedFieldProps) {
  return (
    <Field id={id} label="Email">
      <input
        id={id}
        name="email"
        type="email"
        autoComplete="email"
        inputMode="email"
        required
        maxLength={LIMITS.email.max}
        defaultValue={defaultValue}
        {...state}
      />
    </Field>
  );
}

/** The phone field of every lead form (docs/forms.md#validation: required, 8 to 20 characters). */
export function PhoneField({ id, defaultValue, state }: SharedFieldProps) {
  return (
    <Field id={id} label="Phone">
      <input
        id={id}
        name="phone"
        type="tel"
        autoComplete="tel"
        required
        minLength={LIMITS.phone.min}
        maxLength={LIMITS.phone.max}
        defaultValue={defaultValue}
        {...state}
      />
    </Field>
  );
}

/**
 * The urgent choice of every lead form (docs/forms.md#urgent-choice,
 * docs/operations.md#urgent-enquiries): optional and unticked at first; ticked, it
 * sends `urgent=yes`, and the enquiry leads to /thank-you/urgent. A page
 * rendered for a refused plain post shows it as the visitor left it. The
 * whole box is the label, at least 44 px high, so it is easy to hit.
 */
export function UrgentField({ id, values }: { id: string; values: Record<string, string> }) {
  return (
    <label className="lead-form__choice lead-form__urgent" htmlFor={id}>
      <input
        id={id}
        type="checkbox"
        name={URGENT_FIELD}
        value={URGENT_VALUE}
        defaultChecked={values[URGENT_FIELD] === URGENT_VALUE}
      />
      <span>
        {URGENT_LABEL} <span className="lead-form__optional">(optional)</span>
      </span>
    </label>
  );
}

/**
 * What closes every lead form: the spam trap, the idempotency key, the submit
 * button, the problem message under it (docs/forms.md#submission-states) and the privacy note.
 */
export function LeadFormEnd({
  id,
  form,
  submitLabel,
}: {
  /** The form's useId(), for the trap's id. */
  id: string;
  form: LeadForm;
  submitLabel: ReactNode;
}) {
  return (
    <>
      <HoneypotField id={`${id}-${HONEYPOT_FIELD}`} />
      <IdempotencyKeyInput inputRef={form.keyRef} value={form.idempotencyKey} />
      <SubmitButton busy={form.busy}>{submitLabel}</SubmitButton>
      <FormProblem id={form.errorId} message={form.problem?.error} />
      <PrivacyNote />
    </>
  );
}

/** Joins aria-describedby ids, leaving out the missing ones. */
export function describedBy(...ids: Array<string | undefined | false>): string | undefined {
  const list = ids.filter(Boolean);
  return list.length ? list.join(' ') : undefined;
}

/**
 * docs/forms.md#messages: the message in a red box under the button. role="alert" so it
 * is announced when it appears.
 */
export function FormProblem({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p className="lead-form__problem" role="alert" id={id}>
      {message}
    </p>
  );
}

/**
 * docs/forms.md#submission-states: disabled and reading 'Submitting...' while a
 * submission runs.
 */
export function SubmitButton({ busy, children }: { busy: boolean; children: ReactNode }) {
  return (
    <button
      type="submit"
      className="button button--primary button--lg lead-form__submit"
      disabled={busy}
    >
      {busy ? 'Submitting...' : children}
    </button>
  );
}

/**
 * The spam trap: people never see or reach it, form-filling bots fill it in.
 * A lead that arrives with it filled is kept as spam and never delivered
 * (app/leads/lead-service.server.ts). Moved off screen rather than hidden,
 * since some bots skip fields that are display: none.
 */
export function HoneypotField({ id }: { id: string }) {
  return (
    <div className="lead-form__trap" aria-hidden="true">
      <label htmlFor={id}>Leave this field empty</label>
      <input id={id} type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" />
    </div>
  );
}

/**
 * The idempotency key. Filled in on the client when the form appears and
 * renewed after each accepted enquiry (use-lead-form.ts); a page rendered for
 * a plain post carries the one the action chose. A prerendered page cannot:
 * without JavaScript the first post goes without a key, which the server accepts.
 */
export function IdempotencyKeyInput({
  inputRef,
  value,
}: {
  inputRef: RefObject<HTMLInputElement | null>;
  value: string;
}) {
  return <input ref={inputRef} type="hidden" name={IDEMPOTENCY_KEY_FIELD} value={value} />;
}

/** Says once, above the fields, what the browser's `required` enforces. */
export function RequiredNote({ children }: { children?: ReactNode }) {
  return <p className="lead-form__note">{children ?? 'All fields are required.'}</p>;
}

/** docs/forms.md#privacy-links: the Terms and Privacy Policy links beside the forms. */
export function PrivacyNote() {
  return (
    <p className="lead-form__legal">
      We use your details only to reply to this request. See our <a href="/terms">Terms</a> and{' '}
      <a href="/privacy-policy">Privacy Policy</a>.
    </p>
  );
}

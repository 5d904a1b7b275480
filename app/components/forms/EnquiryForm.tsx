import { useId } from 'react';
import { EMAIL_PATTERN_SOURCE, LIMITS, SERVICE_OPTIONS } from '../../leads/form-rules.ts';
import {
  describedBy,
  Field,
  FormProblem,
  HoneypotField,
  IdempotencyKeyInput,
  PrivacyNote,
  RequiredNote,
  SubmitButton,
} from './FormParts.tsx';
import { useLeadForm } from './use-lead-form.ts';

const SUBMIT_LABELS = {
  contact_form: 'Send My Enquiry',
  quote_form: 'Request My Free Quote',
} as const;

/**
 * The 'Request a Free Quote' form of the contact and quote pages (SPEC §2,
 * §4, §5): name, email, phone, one of the nine services in SPEC order, and a
 * message. Posts to its route's action (enquiryAction), which records which
 * page it came from (`source`, the SPEC §7 analytics label).
 */
export function EnquiryForm({
  source,
  labelledBy,
}: {
  /** Which page the form is on. */
  source: 'contact_form' | 'quote_form';
  /** id of the heading that names the form. */
  labelledBy?: string;
}) {
  const { Form, formProps, keyRef, busy, problem, errorId, values, fieldState } = useLeadForm();
  const id = useId();
  const messageState = fieldState('message');

  return (
    <Form {...formProps} className="lead-form lead-form--enquiry" aria-labelledby={labelledBy}>
      <RequiredNote />
      <div className="lead-form__grid">
        <Field id={`${id}-name`} label="Name" wide>
          <input
            id={`${id}-name`}
            name="name"
            type="text"
            autoComplete="name"
            required
            minLength={LIMITS.name.min}
            maxLength={LIMITS.name.max}
            defaultValue={values.name}
            {...fieldState('name')}
          />
        </Field>
        <Field id={`${id}-email`} label="Email">
          <input
            id={`${id}-email`}
            name="email"
            type="email"
            autoComplete="email"
            inputMode="email"
            required
            maxLength={LIMITS.email.max}
            pattern={EMAIL_PATTERN_SOURCE}
            defaultValue={values.email}
            {...fieldState('email')}
          />
        </Field>
        <Field id={`${id}-phone`} label="Phone">
          <input
            id={`${id}-phone`}
            name="phone"
            type="tel"
            autoComplete="tel"
            required
            minLength={LIMITS.phone.min}
            maxLength={LIMITS.phone.max}
            defaultValue={values.phone}
            {...fieldState('phone')}
          />
        </Field>
        <Field id={`${id}-service`} label="Service" wide>
          <select
            id={`${id}-service`}
            name="service"
            required
            defaultValue={values.service ?? ''}
            {...fieldState('service')}
          >
            <option value="">Choose a service</option>
            {SERVICE_OPTIONS.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
        </Field>
        <Field
          id={`${id}-message`}
          label="Message"
          hint={`Tell us about the job: what, where and how soon. Up to ${LIMITS.message.max} characters.`}
          wide
        >
          <textarea
            id={`${id}-message`}
            name="message"
            rows={5}
            required
            maxLength={LIMITS.message.max}
            defaultValue={values.message}
            aria-invalid={messageState['aria-invalid']}
            aria-describedby={describedBy(`${id}-message-hint`, messageState['aria-describedby'])}
          />
        </Field>
      </div>

      <HoneypotField id={`${id}-website`} />
      <IdempotencyKeyInput inputRef={keyRef} value={values.idempotency_key} />

      <SubmitButton busy={busy}>{SUBMIT_LABELS[source]}</SubmitButton>
      <FormProblem id={errorId} message={problem?.error} />
      <PrivacyNote />
    </Form>
  );
}

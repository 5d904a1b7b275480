import { useId } from 'react';
import { LIMITS, SERVICE_OPTIONS } from '../../leads/intake/form-rules.ts';
import {
  describedBy,
  EmailField,
  Field,
  LeadFormEnd,
  PhoneField,
  RequiredNote,
} from './FormParts.tsx';
import { useLeadForm, type LeadFormProps } from './use-lead-form.ts';

const SUBMIT_LABELS = {
  contact_form: 'Send My Enquiry',
  quote_form: 'Request My Free Quote',
} as const;

/**
 * The 'Request a Free Quote' form of the contact and quote pages
 * (docs/forms.md#contact-and-quote-forms): name, email, phone, one of the
 * nine services in their documented order, and a
 * message. Posts to its page (`action`) or, with JavaScript, to /api/leads;
 * either way app/leads/intake/receive-lead.server.ts records which page it came
 * from (`source`, docs/forms.md#the-three-forms).
 */
export function EnquiryForm({
  source,
  labelledBy,
  ...page
}: LeadFormProps & {
  /** Which page the form is on. */
  source: 'contact_form' | 'quote_form';
  /** id of the heading that names the form. */
  labelledBy?: string;
}) {
  const form = useLeadForm(source, page);
  const { formProps, values, fieldState } = form;
  const id = useId();
  const messageState = fieldState('message');

  return (
    <form {...formProps} className="lead-form lead-form--enquiry" aria-labelledby={labelledBy}>
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
        <EmailField id={`${id}-email`} defaultValue={values.email} state={fieldState('email')} />
        <PhoneField id={`${id}-phone`} defaultValue={values.phone} state={fieldState('phone')} />
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

      <LeadFormEnd id={id} form={form} submitLabel={SUBMIT_LABELS[source]} />
    </form>
  );
}

import { useId } from 'react';
import { LIMITS, PHOTOS_FIELD, SERVICE_OPTIONS } from '../../leads/intake/form-rules.ts';
import {
  describedBy,
  EmailField,
  Field,
  LeadFormEnd,
  PhoneField,
  RequiredNote,
  UrgentField,
} from './FormParts.tsx';
import { PhotoField } from './PhotoField.tsx';
import { useLeadForm, type LeadFormProps } from './use-lead-form.ts';
import { usePhotoPicker } from './use-photo-picker.ts';

const SUBMIT_LABELS = {
  contact_form: 'Send My Enquiry',
  quote_form: 'Request My Free Quote',
} as const;

/**
 * The 'Request a Free Quote' form of the contact and quote pages
 * (docs/forms.md#contact-and-quote-forms): name, email, phone, one of the
 * nine services in their documented order, a message, up to three photos
 * (PhotoField.tsx) and the optional urgent choice. Posts to its page (`action`) or, with JavaScript, to /api/leads;
 * either way app/leads/intake/receive-lead.server.ts records which page it came
 * from (`source`, docs/forms.md#the-three-forms). Multipart, for the photos
 * of a post without JavaScript; the script sends URL-encoded fields unless
 * there are photos (submit-lead-form.ts).
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
  const photos = usePhotoPicker();
  const form = useLeadForm(source, page, { beforePost: photos.beforePost });
  const { formProps, values, fieldState } = form;
  const id = useId();
  const messageState = fieldState('message');

  return (
    <form
      {...formProps}
      encType="multipart/form-data"
      className="lead-form lead-form--enquiry"
      aria-labelledby={labelledBy}
    >
      <RequiredNote>All fields are required unless marked optional.</RequiredNote>
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
        <PhotoField
          id={`${id}-photos`}
          picker={photos}
          state={fieldState(PHOTOS_FIELD)}
          serverMessage={form.problem?.fields[PHOTOS_FIELD]}
        />
      </div>

      <UrgentField id={`${id}-urgent`} values={values} />

      <LeadFormEnd id={id} form={form} submitLabel={SUBMIT_LABELS[source]} />
    </form>
  );
}

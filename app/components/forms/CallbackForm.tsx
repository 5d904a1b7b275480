import { useId } from 'react';
import { CALLBACK_SERVICE_TYPES, LIMITS } from '../../leads/intake/form-rules.ts';
import {
  EmailField,
  Field,
  LeadFormEnd,
  PhoneField,
  RequiredNote,
  UrgentField,
} from './FormParts.tsx';
import { useLeadForm, type LeadFormProps } from './use-lead-form.ts';

/**
 * The home page's 'Let Us Call You' form (docs/forms.md#home-call-back-form): first and
 * last name, email, phone, postal code, Home Glass / Business Glass (Home
 * Glass first), the optional urgent choice, and an SMS/e-mail opt-in that
 * starts unchecked and is never sent. Posts to the home page (`action`) or, with JavaScript, to
 * /api/leads; either way app/leads/intake/receive-lead.server.ts joins the names and
 * combines the service type and postal code into the message.
 */
export function CallbackForm({
  labelledBy,
  ...page
}: LeadFormProps & {
  /** id of the heading that names the form. */ labelledBy?: string;
}) {
  const form = useLeadForm('hero_form', page);
  const { formProps, values, fieldState } = form;
  const id = useId();
  const serviceType = values.serviceType ?? CALLBACK_SERVICE_TYPES[0];

  return (
    <form {...formProps} className="lead-form lead-form--callback" aria-labelledby={labelledBy}>
      <RequiredNote>All fields are required unless marked optional.</RequiredNote>
      <div className="lead-form__grid">
        <Field id={`${id}-first`} label="First name">
          <input
            id={`${id}-first`}
            name="firstName"
            type="text"
            autoComplete="given-name"
            required
            maxLength={LIMITS.namePart.max}
            defaultValue={values.firstName}
            {...fieldState('firstName')}
          />
        </Field>
        <Field id={`${id}-last`} label="Last name">
          <input
            id={`${id}-last`}
            name="lastName"
            type="text"
            autoComplete="family-name"
            required
            maxLength={LIMITS.namePart.max}
            defaultValue={values.lastName}
            {...fieldState('lastName')}
          />
        </Field>
        <EmailField id={`${id}-email`} defaultValue={values.email} state={fieldState('email')} />
        <PhoneField id={`${id}-phone`} defaultValue={values.phone} state={fieldState('phone')} />
        <Field id={`${id}-postcode`} label="Postal code">
          <input
            id={`${id}-postcode`}
            name="postcode"
            type="text"
            autoComplete="postal-code"
            required
            maxLength={LIMITS.postcode.max}
            defaultValue={values.postcode}
            {...fieldState('postcode')}
          />
        </Field>
        <fieldset className="lead-form__choices">
          <legend className="lead-form__label">Service type</legend>
          {CALLBACK_SERVICE_TYPES.map((type) => (
            <label key={type} className="lead-form__choice">
              <input
                type="radio"
                name="serviceType"
                value={type}
                defaultChecked={type === serviceType}
              />
              <span>{type}</span>
            </label>
          ))}
        </fieldset>
      </div>

      <UrgentField id={`${id}-urgent`} values={values} />

      {/* Unchecked at first, and its value is never sent (no name): docs/forms.md#home-call-back-form. */}
      <label className="lead-form__consent">
        <input type="checkbox" />
        <span>
          Send me the odd SMS or e-mail about offers and glass care tips{' '}
          <span className="lead-form__optional">(optional)</span>
        </span>
      </label>

      <LeadFormEnd id={id} form={form} submitLabel="Call Me Back" />
    </form>
  );
}

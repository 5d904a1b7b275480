import { PHOTO_RULES, PHOTOS_FIELD } from '../../leads/intake/form-rules.ts';
import { useHydrated } from '../use-hydrated.ts';
import { describedBy } from './FormParts.tsx';
import type { FieldState } from './use-lead-form.ts';
import { removeLabel, type PhotoPicker } from './use-photo-picker.ts';

const MEGABYTE = 1024 * 1024;

/** '2.4 MB', '640 KB': a chosen photo's size beside its name. */
function shownSize(bytes: number): string {
  return bytes >= MEGABYTE / 10
    ? `${(bytes / MEGABYTE).toFixed(1)} MB`
    : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** The hint under the field (docs/forms.md#photos). */
export const PHOTO_HINT = `Up to ${PHOTO_RULES.maxCount} photos, JPEG, PNG or WebP, ${PHOTO_RULES.maxBytes / MEGABYTE} MB each. A photo of the broken pane helps us quote faster.`;

/**
 * The optional Photos field of the contact and quote forms
 * (docs/forms.md#photos, docs/interactive-parts.md#photo-picker).
 *
 * Without JavaScript (and until the form's code runs) it is the browser's
 * own file input, posted with the form as multipart/form-data. Once
 * hydrated the input is hidden behind an 'Add photos' button (its second
 * label), and the chosen photos are listed with a thumbnail and a Remove
 * button each; the picker (use-photo-picker.ts) holds them. The client
 * check's message, or the server's for `photos`, shows under the field.
 */
export function PhotoField({
  id,
  picker,
  state,
  serverMessage,
}: {
  id: string;
  picker: PhotoPicker;
  /** The form's state for `photos`: marked, and linked to the red box, after a refusal. */
  state: FieldState;
  /** The message the last answer gave for `photos`. */
  serverMessage: string | undefined;
}) {
  const hydrated = useHydrated();
  const { photos, announcement, inputRef, listRef, onChange, remove } = picker;
  const message = picker.message ?? serverMessage;
  const hintId = `${id}-hint`;
  const messageId = `${id}-message`;

  return (
    <div className="lead-form__field lead-form__field--wide photo-picker">
      <label className="lead-form__label" htmlFor={id}>
        Photos <span className="lead-form__optional">(optional)</span>
      </label>
      <input
        ref={inputRef}
        id={id}
        type="file"
        name={PHOTOS_FIELD}
        multiple
        accept={PHOTO_RULES.types.join(',')}
        className={hydrated ? 'photo-picker__input' : undefined}
        onChange={onChange}
        aria-invalid={message ? true : undefined}
        aria-describedby={describedBy(hintId, message && messageId, state['aria-describedby'])}
      />
      {hydrated ? (
        <label htmlFor={id} className="button button--secondary photo-picker__add">
          Add photos
        </label>
      ) : null}
      <p className="lead-form__hint" id={hintId}>
        {PHOTO_HINT}
      </p>
      {message ? (
        <p className="photo-picker__message" id={messageId}>
          {message}
        </p>
      ) : null}
      {photos.length > 0 ? (
        <ul className="photo-picker__list" ref={listRef} aria-label="Chosen photos">
          {photos.map((photo, index) => (
            <li key={photo.key} className="photo-picker__item">
              <img className="photo-picker__thumb" src={photo.url} alt="" width={64} height={64} />
              <span className="photo-picker__name">{photo.file.name}</span>
              <span className="photo-picker__size">{shownSize(photo.file.size)}</span>
              <button
                type="button"
                className="button button--secondary button--sm photo-picker__remove"
                aria-label={removeLabel(index, photo.file)}
                onClick={() => remove(index)}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <p className="sr-only" role="status">
        {announcement}
      </p>
    </div>
  );
}

import {
  PHOTO_COUNT_MESSAGE,
  PHOTO_RULES,
  PHOTO_SIZE_MESSAGE,
  PHOTO_TYPE_MESSAGE,
} from '../../leads/intake/form-rules.ts';

/**
 * The browser's checks of the photos of an enquiry
 * (docs/forms.md#photos): how many, how large, and the type the browser
 * declares. The server checks each photo again and reads it (its pixels
 * too, which only decoding tells); these only spare the visitor an upload
 * the server would refuse.
 */

/** What choosing photos gave: the ones to keep, and the message for any left out. */
export interface PhotoChoice {
  kept: File[];
  /** The first of PHOTO_TYPE_MESSAGE, PHOTO_SIZE_MESSAGE, PHOTO_COUNT_MESSAGE that applies. */
  message?: string;
}

const isAcceptedType = (type: string) => (PHOTO_RULES.types as readonly string[]).includes(type);

/**
 * The photos just chosen, added to `already` of them: each of an accepted
 * type and size is kept while there is room (PHOTO_RULES.maxCount in all),
 * in the order chosen.
 */
export function choosePhotos(already: number, chosen: readonly File[]): PhotoChoice {
  const kept: File[] = [];
  let wrongType = false;
  let tooLarge = false;
  let tooMany = false;
  for (const file of chosen) {
    if (!isAcceptedType(file.type)) wrongType = true;
    else if (file.size > PHOTO_RULES.maxBytes) tooLarge = true;
    else if (already + kept.length >= PHOTO_RULES.maxCount) tooMany = true;
    else kept.push(file);
  }
  const message = wrongType
    ? PHOTO_TYPE_MESSAGE
    : tooLarge
      ? PHOTO_SIZE_MESSAGE
      : tooMany
        ? PHOTO_COUNT_MESSAGE
        : undefined;
  return message ? { kept, message } : { kept };
}

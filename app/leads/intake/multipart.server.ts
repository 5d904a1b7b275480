import {
  firstValues,
  readMultipart,
  type BodyRequest,
  type FileProblem,
} from '../../http/body.server.ts';
import {
  PHOTO_COUNT_MESSAGE,
  PHOTO_RULES,
  PHOTO_SIZE_MESSAGE,
  PHOTO_TYPE_MESSAGE,
  PHOTOS_FIELD,
} from './form-rules.ts';

/**
 * A lead posted as `multipart/form-data` (docs/operations.md#photos-with-an-enquiry):
 * the lead's text fields and up to PHOTO_RULES.maxCount files in `photos`,
 * read by the one body reader (app/http/body.server.ts) with a limit on
 * everything: the whole body at most PHOTO_RULES.maxMultipartBody (413
 * beyond), each file at most PHOTO_RULES.maxBytes, the text fields together
 * at most `fieldBytes` (the 16 KiB of any other body), at most MAX_FIELDS
 * of them. A file part is written to a temporary file as it arrives, never
 * held whole in memory; the caller removes them with `discard()` once it is
 * done, whatever the outcome. A file part with nothing in it (a form posted
 * with no file chosen) is not a photo.
 *
 * Nothing here decides whether a photo is one: its bytes go to
 * app/images/safe-photo.server.ts.
 */

/** Text fields a multipart lead may have (a lead has about a dozen). */
export const MAX_FIELDS = 32;

export interface MultipartPart {
  /** The temporary file holding the part as posted, at most PHOTO_RULES.maxBytes. */
  file: string;
}

export type ReadMultipartResult = ReadMultipartOutcome & {
  /** Removes the temporary files of the parts; call it once done with them, whatever the outcome. */
  discard: () => Promise<void>;
};

type ReadMultipartOutcome =
  | {
      ok: true;
      /** Text fields, the first value of each. */
      fields: Record<string, string>;
      /** Non-empty file parts of `photos`, in order. */
      photos: MultipartPart[];
      /** A refusal of the photos found while reading (the field's message), if any. */
      photoError?: string;
    }
  | {
      ok: false;
      status: 400 | 413;
      /** Which limit: the body's, the text fields', or an unreadable body. */
      reason: 'body' | 'fields' | 'malformed';
      /** The text fields read before stopping, to show them again. */
      fields: Record<string, string>;
    };

/** The message on `photos` for the first problem found with them. */
const PHOTO_PROBLEM_MESSAGES: Record<FileProblem, string> = {
  'not-a-file': PHOTO_TYPE_MESSAGE,
  'too-large': PHOTO_SIZE_MESSAGE,
  'too-many': PHOTO_COUNT_MESSAGE,
};

export async function readLeadMultipart(
  request: BodyRequest,
  options: { fieldBytes: number },
): Promise<ReadMultipartResult> {
  const read = await readMultipart(request, {
    bodyBytes: PHOTO_RULES.maxMultipartBody,
    fileField: PHOTOS_FIELD,
    files: PHOTO_RULES.maxCount,
    fileBytes: PHOTO_RULES.maxBytes,
    fields: MAX_FIELDS,
    fieldBytes: options.fieldBytes,
  });
  const fields = firstValues(read.fields);
  if (!read.ok) {
    return { ok: false, status: read.status, reason: read.reason, fields, discard: read.discard };
  }
  const problem = read.problems[0];
  return {
    ok: true,
    fields,
    photos: read.files,
    ...(problem ? { photoError: PHOTO_PROBLEM_MESSAGES[problem] } : {}),
    discard: read.discard,
  };
}

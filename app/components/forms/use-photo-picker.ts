import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { PHOTO_RULES, PHOTOS_FIELD } from '../../leads/intake/form-rules.ts';
import { choosePhotos } from './photo-checks.ts';

/** A photo the visitor chose, with the object URL its thumbnail shows. */
export interface ChosenPhoto {
  /** Stable while the photo stays chosen, for React's list. */
  key: string;
  file: File;
  url: string;
}

/** 'Remove photo 2: IMG_1234.jpg': what a photo's Remove button is called. */
export function removeLabel(index: number, file: File): string {
  return `Remove photo ${index + 1}: ${file.name}`;
}

function howMany(count: number): string {
  return count === 0 ? 'No photos chosen.' : `${count} of ${PHOTO_RULES.maxCount} photos chosen.`;
}

/**
 * The state of the photo picker of the contact and quote forms
 * (docs/interactive-parts.md#photo-picker): the photos chosen so far, the
 * message of the last choice, and what the polite live region says.
 *
 * With JavaScript the file input only brings photos in: each choice adds
 * to those already chosen (up to PHOTO_RULES.maxCount), the input is then
 * emptied, and `beforePost` puts the chosen ones into the scripted post in
 * its place. Each thumbnail's object URL is made when its photo is added
 * and revoked when it is removed or the form goes away.
 */
export function usePhotoPicker() {
  const [photos, setPhotos] = useState<readonly ChosenPhoto[]>([]);
  // The client check's message for the last choice, until the next choice,
  // removal or submission.
  const [message, setMessage] = useState<string | undefined>();
  const [announcement, setAnnouncement] = useState('');
  const inputRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  // Where focus goes once a removal has rendered: the Remove button now at
  // this position, or the file input when none is left.
  const focusAfterRemoval = useRef<number | undefined>(undefined);
  const nextKey = useRef(0);
  const latest = useRef(photos);

  const add = (chosen: readonly File[]) => {
    const { kept, message: problem } = choosePhotos(photos.length, chosen);
    const added = kept.map((file) => ({
      key: `photo-${nextKey.current++}`,
      file,
      url: URL.createObjectURL(file),
    }));
    const next = [...photos, ...added];
    setPhotos(next);
    setMessage(problem);
    const what =
      added.length === 0
        ? ''
        : added.length === 1
          ? `Photo added: ${added[0]!.file.name}. `
          : `${added.length} photos added. `;
    setAnnouncement(`${what}${howMany(next.length)}${problem ? ` ${problem}` : ''}`);
  };

  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const chosen = [...(input.files ?? [])];
    // Emptied, so choosing the same file again is a change too, and the
    // post never carries the input's files beside the chosen ones.
    input.value = '';
    if (chosen.length > 0) add(chosen);
  };

  const remove = (index: number) => {
    const photo = photos[index];
    if (!photo) return;
    URL.revokeObjectURL(photo.url);
    const next = photos.filter((_, at) => at !== index);
    setPhotos(next);
    setMessage(undefined);
    focusAfterRemoval.current = Math.min(index, next.length - 1);
    setAnnouncement(`Removed photo ${index + 1}: ${photo.file.name}. ${howMany(next.length)}`);
  };

  /** useLeadForm's beforePost: the chosen photos, in order, in place of the emptied input. */
  const beforePost = (formData: FormData) => {
    formData.delete(PHOTOS_FIELD);
    for (const photo of photos) formData.append(PHOTOS_FIELD, photo.file, photo.file.name);
    setMessage(undefined);
  };

  useEffect(() => {
    latest.current = photos;
    const index = focusAfterRemoval.current;
    if (index === undefined) return;
    focusAfterRemoval.current = undefined;
    const buttons = listRef.current?.querySelectorAll<HTMLButtonElement>('button');
    (buttons?.[index] ?? inputRef.current)?.focus();
  }, [photos]);

  // Photos chosen before the form's code arrived are taken in as if chosen now.
  useEffect(() => {
    const input = inputRef.current;
    if (!input?.files?.length) return;
    const chosen = [...input.files];
    input.value = '';
    add(chosen);
    // Once, when the form appears.
  }, []);

  useEffect(
    () => () => {
      for (const photo of latest.current) URL.revokeObjectURL(photo.url);
    },
    [],
  );

  return { photos, message, announcement, inputRef, listRef, onChange, remove, beforePost };
}

/** What usePhotoPicker gives the form and its PhotoField. */
export type PhotoPicker = ReturnType<typeof usePhotoPicker>;

import { elementsIn } from '../../browser/behaviour.ts';

/** An image that has a placeholder, with the placeholder's label (Illustration.tsx). */
const SELECTOR = 'img[data-fallback-label]';

/** Each image that failed, and the placeholder that took its place. */
const placeholders = new WeakMap<HTMLImageElement, HTMLElement>();
/** How many starts listen on each scope: the last stop removes the listener. */
const listening = new WeakMap<ParentNode, number>();

/**
 * docs/interactive-parts.md#image-placeholders: an image that fails to load is
 * replaced by a coloured placeholder of the same shape, with its label,
 * announced as an image with the image's alt text. Without JavaScript the
 * browser shows the alt text.
 */
function showPlaceholder(image: HTMLImageElement) {
  if (placeholders.has(image) || !image.parentNode) return;
  console.warn('image failed to load', image.getAttribute('src'));
  const placeholder = document.createElement('div');
  placeholder.className = `${image.className} illustration--fallback`;
  placeholder.setAttribute('role', 'img');
  placeholder.setAttribute('aria-label', image.alt);
  placeholder.style.aspectRatio = `${image.getAttribute('width')} / ${image.getAttribute('height')}`;
  const label = document.createElement('span');
  label.setAttribute('aria-hidden', 'true');
  label.textContent = image.dataset.fallbackLabel || 'Image not available';
  placeholder.append(label);
  placeholders.set(image, placeholder);
  image.replaceWith(placeholder);
}

function onError(event: Event) {
  const image = event.target;
  if (!(image instanceof HTMLImageElement) || !image.matches(SELECTOR)) return;
  // Image errors do not bubble, so this listens in the capture phase, before
  // listeners nearer the image (a carousel logs which slide failed): they
  // still find the image in its place, and it is replaced after them.
  setTimeout(() => showPlaceholder(image));
}

/**
 * Replaces every image of `scope` (the document, or one image) that has
 * failed or fails later by its placeholder. The images that failed before it
 * started (a module script runs after the HTML is parsed, React after the
 * page's `load`) are replaced at once.
 */
export function startImageFallbacks(scope: ParentNode = document): () => void {
  for (const image of elementsIn<HTMLImageElement>(scope, SELECTOR)) {
    // Loaded or broken, and no picture: broken. An image still waiting
    // (lazy, below the fold) is not complete.
    if (image.complete && image.naturalWidth === 0) showPlaceholder(image);
  }
  const count = listening.get(scope) ?? 0;
  listening.set(scope, count + 1);
  if (count === 0) scope.addEventListener('error', onError, true);
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    const left = (listening.get(scope) ?? 1) - 1;
    if (left > 0) {
      listening.set(scope, left);
      return;
    }
    listening.delete(scope);
    scope.removeEventListener('error', onError, true);
  };
}

/**
 * Puts a replaced image back where its placeholder is, so that React, which
 * rendered the image, finds it to update or remove it. The module is then
 * free to replace it again if it fails again.
 */
export function restoreImage(image: HTMLImageElement) {
  const placeholder = placeholders.get(image);
  if (!placeholder) return;
  placeholders.delete(image);
  placeholder.replaceWith(image);
}

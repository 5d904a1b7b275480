import { defineMiddleware } from 'astro:middleware';
import { refreshPublishedContent } from './content/published.ts';

/**
 * Before every page renders (prerendered at build time, or on request), the
 * content modules catch up with the content put in place
 * (app/content/published.ts): after a publication, the server's next page
 * states the new content without loading any new code.
 */
export const onRequest = defineMiddleware((_context, next) => {
  refreshPublishedContent();
  return next();
});

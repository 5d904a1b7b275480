import type { SiteNotice as Notice } from '../../content/site-content.ts';

/**
 * The owner's site notice (docs/operations.md#site-content), above the header
 * of every page while its dates last: plain text, rendered as text (never as
 * HTML), in a labelled landmark so a screen reader's list of regions finds
 * it. It is in the prerendered HTML and runs no script, so it moves nothing
 * after the first paint; the build leaves it out outside its dates.
 */
export function SiteNotice({ notice }: { notice: Notice | null }) {
  if (!notice) return null;
  return (
    <aside className="site-notice" aria-label="Notice">
      <div className="container">
        <p className="site-notice__text">
          <strong className="site-notice__label">Notice:</strong> {notice.text}
        </p>
      </div>
    </aside>
  );
}

import { useEffect, useRef, type MouseEvent, type ReactNode } from 'react';
import { useMediaQuery } from '../../lib/use-media-query.ts';
import { Icon } from '../ui/Icon.tsx';

/** Where the layout switches to desktop; matches the 768 px breakpoint in pages.css. */
export const DESKTOP_QUERY = '(min-width: 768px)';

/**
 * A collapsible section of a service page built on `<details>`, so it opens
 * and closes without JavaScript and its text is in the prerendered HTML.
 *
 * `mobileOnly` (SPEC §2: 'Features' is collapsible on mobile only): below
 * 768 px it is an ordinary disclosure; from 768 px pages.css shows the content
 * whether or not the element is open (no JavaScript needed, no layout shift),
 * and once hydrated the element is kept open so its state reads 'expanded'.
 */
export function ServiceDisclosure({
  id,
  title,
  mobileOnly = false,
  children,
}: {
  id: string;
  title: string;
  mobileOnly?: boolean;
  children: ReactNode;
}) {
  const detailsRef = useRef<HTMLDetailsElement>(null);
  const desktop = useMediaQuery(DESKTOP_QUERY);
  const alwaysOpen = mobileOnly && desktop;

  useEffect(() => {
    if (alwaysOpen && detailsRef.current) detailsRef.current.open = true;
  }, [alwaysOpen]);

  const onSummaryClick = (event: MouseEvent<HTMLElement>) => {
    if (alwaysOpen) event.preventDefault();
  };

  return (
    <details
      ref={detailsRef}
      id={id}
      className={`disclosure${mobileOnly ? ' disclosure--mobile-only' : ''}`}
      data-always-open={alwaysOpen ? '' : undefined}
    >
      <summary
        className="disclosure__summary"
        onClick={onSummaryClick}
        // On desktop the summary is only a heading: keep it out of the tab order.
        tabIndex={alwaysOpen ? -1 : undefined}
      >
        <h2 className="disclosure__title">{title}</h2>
        <span className="disclosure__hint" aria-hidden="true">
          <span className="disclosure__hint-show">Show</span>
          <span className="disclosure__hint-hide">Hide</span>
          <Icon name="chevron-down" size={20} className="disclosure__chevron" />
        </span>
      </summary>
      <div className="disclosure__body">{children}</div>
    </details>
  );
}

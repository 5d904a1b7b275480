import type { ReactNode } from 'react';
import { Icon } from '../ui/Icon.tsx';

/**
 * A collapsible section of a service page built on `<details>`, so it opens
 * and closes without JavaScript and its text is in the prerendered HTML.
 *
 * `mobileOnly` (docs/interactive-parts.md#service-page-sections: 'Features' is
 * collapsible on mobile only): below 768 px it is an ordinary disclosure; from
 * 768 px pages.css shows the content whether or not the element is open (no
 * JavaScript needed, no layout shift), and once startMobileOnlyDisclosures runs
 * (mobile-only-disclosure.ts, started by the page's module script,
 * app/browser/site.ts) the element is kept open so its state reads 'expanded'.
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
  return (
    <details id={id} className={`disclosure${mobileOnly ? ' disclosure--mobile-only' : ''}`}>
      <summary className="disclosure__summary">
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

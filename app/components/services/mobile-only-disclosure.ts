import { defineBehaviour } from '../../browser/behaviour.ts';

/** Where the layout switches to desktop; matches the 768 px breakpoint in pages.css. */
export const DESKTOP_QUERY = '(min-width: 768px)';

/**
 * docs/interactive-parts.md#service-page-sections: 'Features' is collapsible on
 * mobile only. Below 768 px it is an ordinary `<details>`; from 768 px
 * pages.css shows its content whether or not it is open (no script needed, no
 * layout shift), and this keeps the element open, so its state reads
 * 'expanded', with its summary only a heading: out of the tab order and not
 * closing it when clicked.
 */
export const startMobileOnlyDisclosures = defineBehaviour<HTMLDetailsElement>(
  'details.disclosure--mobile-only',
  (details) => {
    const summary = details.querySelector<HTMLElement>(':scope > summary');
    const desktop = window.matchMedia(DESKTOP_QUERY);
    const apply = () => {
      details.toggleAttribute('data-always-open', desktop.matches);
      if (desktop.matches) {
        details.open = true;
        summary?.setAttribute('tabindex', '-1');
      } else {
        // Back to an ordinary disclosure, left open as it was.
        summary?.removeAttribute('tabindex');
      }
    };
    const onSummaryClick = (event: MouseEvent) => {
      if (desktop.matches) event.preventDefault();
    };
    apply();
    desktop.addEventListener('change', apply);
    summary?.addEventListener('click', onSummaryClick);
    return () => {
      desktop.removeEventListener('change', apply);
      summary?.removeEventListener('click', onSummaryClick);
      details.removeAttribute('data-always-open');
      summary?.removeAttribute('tabindex');
    };
  },
);

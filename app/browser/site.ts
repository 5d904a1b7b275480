/**
 * The one module every page runs (app/layouts/Document.astro): what reacts
 * in the browser without being an island. Each part is a few lines of its
 * own module beside its component; the heavy ones (Embla) load only when a
 * page has them. It starts once the page has loaded and painted (scripts/defer-scripts.ts);
 * before that the page is its no-JavaScript self, and the mobile menu a
 * native popover that already opens on a tap.
 */
import { startHeaderMenus } from '../components/layout/header-menus.ts';
import { updateFooterYear } from '../components/layout/footer-year.ts';
import { startPhoneBar } from '../components/layout/phone-bar.ts';
import { startCarousels } from '../components/carousel/carousel.ts';
import { startTestimonialToggles } from '../components/home/testimonial-toggle.ts';
import { startSectionJumps } from '../components/legal/jump-to-section.ts';
import { startMapEmbeds } from '../components/map-embed.ts';
import { startMobileOnlyDisclosures } from '../components/services/mobile-only-disclosure.ts';
import { startImageFallbacks } from '../components/ui/image-fallback.ts';
import { loadAnalytics, trackPageView } from './analytics.ts';
import { rememberVisit, sendVisitWithForms } from './visit.ts';

// No-JavaScript fallbacks step aside (the stylesheets read this).
document.documentElement.dataset.js = 'on';

loadAnalytics();
trackPageView(location.pathname + location.search);
// Where this visit came from, sent with an enquiry (docs/operations.md#where-enquiries-come-from).
rememberVisit();
sendVisitWithForms();

const header = document.querySelector<HTMLElement>('.site-header');
if (header) startHeaderMenus(header);
startPhoneBar();
updateFooterYear();
startTestimonialToggles();
startCarousels();
startImageFallbacks();
startMapEmbeds();
startMobileOnlyDisclosures();
startSectionJumps();

/**
 * `data-ready` on the document once every island on the page has hydrated
 * (Astro removes an island's `ssr` attribute then): the page does all it
 * will do. Browser tests wait for it before they interact.
 */
function markReadyWhenHydrated() {
  const pending = () => document.querySelector('astro-island[ssr]') !== null;
  const ready = () => {
    document.documentElement.dataset.ready = '';
  };
  if (!pending()) return ready();
  const observer = new MutationObserver(() => {
    if (pending()) return;
    observer.disconnect();
    ready();
  });
  observer.observe(document.body, { subtree: true, attributeFilter: ['ssr'] });
}
markReadyWhenHydrated();

/** docs/pages-and-routes.md#mobile-phone-bar: the scrolled state begins past 50 px. */
export const SCROLLED_THRESHOLD_PX = 50;

/** Shows the phone bar (MobilePhoneBar.tsx) once the page has scrolled past the threshold. */
export function startPhoneBar(scope: ParentNode = document): () => void {
  const bar = scope.querySelector<HTMLElement>('.phone-bar');
  if (!bar) return () => {};
  const update = () => {
    if (window.scrollY > SCROLLED_THRESHOLD_PX) bar.dataset.visible = 'true';
    else delete bar.dataset.visible;
  };
  update();
  window.addEventListener('scroll', update, { passive: true });
  return () => window.removeEventListener('scroll', update);
}

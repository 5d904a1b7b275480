/**
 * The Read more / Read less toggle of a long review (TestimonialCard.tsx,
 * docs/interactive-parts.md#testimonial-text): one listener for the whole page.
 */
export function startTestimonialToggles(scope: ParentNode = document): () => void {
  const onClick = (event: Event) => {
    const button = (event.target as Element | null)?.closest<HTMLButtonElement>(
      '.testimonial-card__toggle',
    );
    const quote = button && document.getElementById(button.getAttribute('aria-controls') ?? '');
    if (!button || !quote) return;
    const expanded = button.getAttribute('aria-expanded') !== 'true';
    button.setAttribute('aria-expanded', String(expanded));
    button.textContent = expanded ? 'Read less' : 'Read more';
    quote.querySelector<HTMLElement>('.testimonial-card__short')!.hidden = expanded;
    quote.querySelector<HTMLElement>('.testimonial-card__full')!.hidden = !expanded;
  };
  scope.addEventListener('click', onClick);
  return () => scope.removeEventListener('click', onClick);
}

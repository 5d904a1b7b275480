import { CallToAction } from '../ui/CallToAction.tsx';

/**
 * docs/blog.md#call-to-action-block: the blog's call-to-action block, on the
 * list and below every article.
 */
export function BlogCallToAction() {
  return (
    <CallToAction id="blog-cta" title="Service You Can Trust!">
      <p>Let us know how we can help you today.</p>
    </CallToAction>
  );
}

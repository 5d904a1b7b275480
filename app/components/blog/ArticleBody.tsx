import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';

/**
 * A part of an article body: HTML compiled from our own Markdown at build
 * time (app/lib/blog/compile.ts drops raw HTML and checks every link). Links
 * to our own pages navigate inside the app instead of reloading the page.
 */
export function ArticleBody({ html }: { html: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const navigate = useNavigate();

  useEffect(() => {
    const container = ref.current;
    if (!container) return;
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0) return;
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = (event.target as Element | null)?.closest('a');
      const href = link?.getAttribute('href');
      if (!link || !href || !/^\/(?!\/)/.test(href) || link.target) return;
      event.preventDefault();
      void navigate(href);
    };
    container.addEventListener('click', onClick);
    return () => container.removeEventListener('click', onClick);
  }, [navigate]);

  return <div ref={ref} className="article-body" dangerouslySetInnerHTML={{ __html: html }} />;
}

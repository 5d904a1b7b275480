import { index, route, type RouteConfig } from '@react-router/dev/routes';

/**
 * The one list of route modules. Concrete paths for prerendering and the
 * sitemaps come from app/site-pages.ts; a test checks the two agree.
 */
export default [
  index('routes/home.tsx'),
  route('services', 'routes/services.tsx'),
  route('services/:slug', 'routes/service.tsx'),
  route('glass-types/:slug', 'routes/glass-type.tsx'),
  route('about', 'routes/about.tsx'),
  route('contact', 'routes/contact.tsx'),
  route('quote', 'routes/quote.tsx'),
  route('thank-you', 'routes/thank-you.tsx'),
  route('blog', 'routes/blog.tsx'),
  route('blog/category/:category', 'routes/blog-category.tsx'),
  // A static segment outranks blog/:slug, so the feed is never read as an article.
  route('blog/rss.xml', 'routes/blog-rss.ts'),
  route('blog/:slug', 'routes/blog-post.tsx'),
  route('privacy-policy', 'routes/privacy-policy.tsx'),
  route('terms', 'routes/terms.tsx'),
  route('sitemap', 'routes/sitemap.tsx'),
  route('sitemap.xml', 'routes/sitemap-xml.ts'),
  route('robots.txt', 'routes/robots-txt.ts'),
  // Anything else: a real 404 with a helpful page.
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig;

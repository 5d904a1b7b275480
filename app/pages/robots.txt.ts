import { absoluteUrl } from '../public-config.ts';

export function GET() {
  const body = [
    'User-agent: *',
    'Allow: /',
    'Disallow: /api/',
    // The owner's pages: private, and every answer says noindex too.
    'Disallow: /admin',
    // A customer's own review link (docs/operations.md, "Reviews"): its pages say noindex too.
    'Disallow: /review/',
    '',
    `Sitemap: ${absoluteUrl('/sitemap.xml')}`,
    '',
  ].join('\n');
  return new Response(body, { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
}

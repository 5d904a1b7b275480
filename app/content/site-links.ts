import { glassTypes } from './glass-types.ts';
import type { SiteLinks } from './navigation.ts';
import { services } from './services.ts';

/**
 * The navigation and footer links drawn from the content modules. Read only
 * on the server (app/layouts/Document.astro), so the content itself never
 * ships in the browser bundle.
 */
export const siteLinks: SiteLinks = {
  services: services.map((service) => ({ title: service.shortTitle, path: service.path })),
  glassTypes: glassTypes.map((glassType) => ({ title: glassType.navTitle, path: glassType.path })),
};

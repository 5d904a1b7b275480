/// <reference types="astro/client" />

// Ambient declarations: `import()` types keep this file global (a top-level
// import would make it a module, and these declarations local to it).
/* eslint-disable @typescript-eslint/consistent-type-imports */

declare namespace App {
  interface Locals {
    /**
     * The lead service for a form post's page, given by the server's table
     * (server/on-demand-routes.server.ts) after the lead guards; null otherwise.
     */
    leads?: import('./leads/intake/receive-lead.server.ts').LeadsRequestContext | null;
    /**
     * The store for a customer's review link's page (app/pages/on-demand/review),
     * given by the same table; absent elsewhere.
     */
    reviews?: import('./reviews/review-page.server.ts').ReviewPageLocals | null;
    /**
     * The owner's pages' context, given to pages under /admin by the gate in
     * front of them (server/owner-gate.server.ts); absent elsewhere.
     */
    ownerPages?: import('./owner/context.server.ts').OwnerPagesContext;
    /** The owner the request's session names, under /admin; null without a session. */
    owner?: import('./owner/context.server.ts').SignedInOwner | null;
    /** Under /admin: the client's address as the server sees it (behind TRUST_PROXY, the visitor's), for the sign-in limits. */
    client?: string;
    /**
     * Under /admin: runs `task` once the answer has been sent (the gate,
     * server/owner-gate.server.ts), so what it does cannot change the
     * answer or its timing.
     */
    afterResponse?: (task: () => Promise<unknown>) => void;
  }
}

declare namespace Astro {
  interface ClientDirectives {
    /** An island hydrates once the page has loaded and painted, and the browser is idle (app/directives/after-load.ts). */
    'client:afterload'?: boolean;
  }
}

/** The owner's pages' service worker and icons, made by the build (scripts/owner-app.ts). */
declare module 'virtual:owner-app' {
  /** The service worker, one classic script. */
  export const serviceWorker: string;
  /** Each icon's PNG, base64, by its file name (`icon-192.png`…). */
  export const icons: Record<string, string>;
}

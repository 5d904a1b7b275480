/**
 * The owner's pages' service worker, served at /admin/sw.js for the scope
 * /admin (docs/operations.md, "Owner's pages"; bundled by esbuild,
 * scripts/owner-app.ts). It shows the notifications the site pushes and
 * answers a tap on them (owner-notification.ts); that is all. It caches
 * nothing and answers no request: the owner's pages are private and never
 * stored, so every page comes from the server as if there were no worker.
 * The public pages never load it.
 */
import { answerClick, notificationFor, type ClickDeps } from './owner-notification.ts';

/*
 * The worker's own global, as far as this file uses it: the project's
 * TypeScript has the DOM's types, not a worker's (both at once clash).
 */
interface ExtendableEventLike extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface PushEventLike extends ExtendableEventLike {
  readonly data: { json(): unknown } | null;
}
interface NotificationEventLike extends ExtendableEventLike {
  readonly action: string;
  readonly notification: Notification;
}
interface WorkerScope {
  readonly registration: ServiceWorkerRegistration;
  readonly clients: ClickDeps['clients'] & { claim(): Promise<void> };
  readonly location: Location;
  skipWaiting(): Promise<void>;
  addEventListener(
    type: 'install' | 'activate',
    listener: (event: ExtendableEventLike) => void,
  ): void;
  addEventListener(type: 'push', listener: (event: PushEventLike) => void): void;
  addEventListener(
    type: 'notificationclick',
    listener: (event: NotificationEventLike) => void,
  ): void;
}

const worker = self as unknown as WorkerScope;

/**
 * Keeps the worker alive until `work` is done. An event the browser did not
 * dispatch (one made with `new NotificationEvent(…)`) cannot be waited on
 * and throws: the work still runs, nothing waits for it.
 */
function whileRunning(event: ExtendableEventLike, work: Promise<unknown>): void {
  try {
    event.waitUntil(work);
  } catch {
    // Not the browser's event: nothing to keep alive.
  }
}

function payloadOf(event: PushEventLike): unknown {
  try {
    return event.data?.json();
  } catch {
    return undefined;
  }
}

// A new version takes over at once: there is nothing cached to keep in step.
worker.addEventListener('install', (event) => whileRunning(event, worker.skipWaiting()));
worker.addEventListener('activate', (event) => whileRunning(event, worker.clients.claim()));

worker.addEventListener('push', (event) => {
  const { title, options } = notificationFor(payloadOf(event));
  whileRunning(event, worker.registration.showNotification(title, options));
});

worker.addEventListener('notificationclick', (event) => {
  event.notification.close();
  whileRunning(
    event,
    answerClick(event.action, event.notification.data, {
      origin: worker.location.origin,
      fetch: (url, init) => fetch(url, init),
      clients: worker.clients,
    }),
  );
});

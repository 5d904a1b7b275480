import { OWNER_APP_SCOPE, SERVICE_WORKER_PATH } from '../owner/owner-app.ts';

/**
 * The Notifications page's button (app/pages/admin/notifications.astro):
 * "Turn on notifications on this phone". Only after that tap does the
 * browser ask for permission; then the phone subscribes to the site's pushes
 * with the site's public key (the page's `data-key`), and the subscription,
 * with what the owner chose (every enquiry, or urgent ones only), is posted
 * to /admin/push. The page then reloads, listing the phone.
 *
 * Before any tap the page says what this browser can do: on an iPhone or
 * iPad in Safari's own window, that the site must first be added to the
 * home screen (iOS lets only a home-screen app get notifications, and
 * Safari's window has no push at all); in a browser without push, that it
 * cannot get them; when notifications are blocked for the site, where to
 * allow them. The form is in its place from the first paint wherever
 * JavaScript runs (admin.css hides it only where scripting is off), so
 * nothing moves when this arrives.
 */

interface Answer {
  ok?: boolean;
  message?: string;
}

const section = document.querySelector<HTMLElement>('[data-push]');
const form = section?.querySelector<HTMLFormElement>('form[data-push-form]');
const button = form?.querySelector<HTMLButtonElement>('button[type="submit"]');
const status = section?.querySelector<HTMLElement>('[data-push-status]');

function say(text: string, error = false): void {
  if (!status) return;
  status.textContent = text;
  status.classList.toggle('admin-message--error', error);
  status.hidden = text === '';
}

/** An iPhone or iPad (iPadOS says it is a Mac, with a touch screen). */
function isAppleMobile(): boolean {
  return (
    /iPhone|iPad|iPod/.test(navigator.userAgent) ||
    (navigator.userAgent.includes('Macintosh') && navigator.maxTouchPoints > 1)
  );
}

/** Opened from the home screen, as an app (iOS says so its own way). */
function isStandalone(): boolean {
  return (
    window.matchMedia('(display-mode: standalone)').matches ||
    (navigator as Navigator & { standalone?: boolean }).standalone === true
  );
}

function canPush(): boolean {
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

/** The site's public key (base64url) as the bytes subscribe() takes. */
function keyBytes(key: string): Uint8Array<ArrayBuffer> {
  const base64 = key.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '='));
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function sameKey(a: ArrayBuffer | null | undefined, b: Uint8Array): boolean {
  if (!a || a.byteLength !== b.byteLength) return false;
  const bytes = new Uint8Array(a);
  return bytes.every((byte, i) => byte === b[i]);
}

async function subscribe(key: Uint8Array<ArrayBuffer>): Promise<PushSubscription> {
  await navigator.serviceWorker.register(SERVICE_WORKER_PATH, { scope: OWNER_APP_SCOPE });
  const registration = await navigator.serviceWorker.ready;
  const existing = await registration.pushManager.getSubscription();
  // Subscribed before with another key (the site's keys were made anew): start again.
  if (existing && sameKey(existing.options.applicationServerKey, key)) return existing;
  await existing?.unsubscribe();
  return registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
}

async function turnOn(notify: string, key: string): Promise<void> {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') {
    say(
      permission === 'denied'
        ? 'Notifications are blocked for this website. Allow them in this browser’s settings for the site, then try again.'
        : 'Notifications were not turned on. Tap the button again when you are ready, and choose “Allow”.',
      true,
    );
    return;
  }
  say('Turning on…');
  let subscription: PushSubscription;
  try {
    subscription = await subscribe(keyBytes(key));
  } catch {
    say('This browser could not turn notifications on. Try again, or try another browser.', true);
    return;
  }
  const response = await fetch('/admin/push', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    credentials: 'same-origin',
    body: JSON.stringify({ ...subscription.toJSON(), notify }),
  }).catch(() => null);
  const answer = ((await response?.json().catch(() => null)) ?? {}) as Answer;
  if (!response?.ok || !answer.ok) {
    say(answer.message ?? 'The website could not be reached. Try again in a moment.', true);
    return;
  }
  window.location.assign(
    `/admin/notifications?done=added-${notify === 'urgent' ? 'urgent' : 'all'}`,
  );
}

/** The mark the page gives each device (push-devices.server.ts, endpointMark). */
async function endpointMark(endpoint: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(endpoint));
  return btoa(String.fromCharCode(...new Uint8Array(digest)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .slice(0, 16);
}

/** Says which listed device is this phone, when this browser is subscribed. */
async function markThisPhone(): Promise<void> {
  const registration = await navigator.serviceWorker.getRegistration(OWNER_APP_SCOPE);
  const subscription = await registration?.pushManager.getSubscription();
  if (!subscription) return;
  const mark = await endpointMark(subscription.endpoint);
  for (const device of document.querySelectorAll<HTMLElement>('[data-device-mark]')) {
    if (device.dataset.deviceMark === mark)
      device.querySelector('[data-this-phone]')?.removeAttribute('hidden');
  }
}

if (section && form && button) {
  const key = section.dataset.key ?? '';
  if (isAppleMobile() && !isStandalone()) {
    form.hidden = true;
    section.querySelector<HTMLElement>('[data-push-home-screen]')?.removeAttribute('hidden');
  } else if (!canPush() || key === '') {
    form.hidden = true;
    section.querySelector<HTMLElement>('[data-push-unsupported]')?.removeAttribute('hidden');
  } else {
    if (Notification.permission === 'denied') {
      say(
        'Notifications are blocked for this website. Allow them in this browser’s settings for the site, then tap the button.',
        true,
      );
    }
    void markThisPhone().catch(() => undefined);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const notify = new FormData(form).get('notify') === 'urgent' ? 'urgent' : 'all';
      button.disabled = true;
      void turnOn(notify, key).finally(() => {
        button.disabled = false;
      });
    });
  }
}

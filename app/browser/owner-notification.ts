/**
 * What the owner's service worker (owner-sw.ts) shows for a push, and what
 * a tap on the notification does (docs/operations.md, "Notifications on the
 * owner's phone"). Plain functions, so they are tested without a browser;
 * the worker only hands them its events.
 *
 * A push's payload is JSON, one of:
 *
 * - `{ type: 'lead', id, name, service, urgent, url, escalated? }`: an
 *   enquiry. Its title names the person ("URGENT: glass broken now." first
 *   for an urgent one), its body the service ("Still unanswered." first when
 *   it is pushed again because nobody acknowledged it). Tagged by the lead's
 *   id, so a second push about it replaces the first; with the action "I’m
 *   on it".
 * - `{ type: 'notice', title, body, url?, tag? }`: something the owner
 *   should know that is not one enquiry (the enquiry e-mails failing),
 *   shown as it is told.
 *
 * Anything else (a payload this version cannot read) still shows a
 * notification, as every push must, leading to the inbox. A notification
 * only ever opens a page of the owner's pages.
 */

/** The action "I’m on it" on an enquiry's notification. */
export const ACK_ACTION = 'ack';

const INBOX = '/admin';
const ICON = '/admin/icons/icon-192.png';
/** A lead's id as the store makes them: letters, digits and dashes. */
const LEAD_ID = /^[A-Za-z0-9_-]{1,100}$/;
const ACK_PATH = /^\/admin\/leads\/[A-Za-z0-9_-]{1,100}\/ack$/;

export interface NotificationData {
  /** The owner's page a tap opens. */
  url: string;
  /** Where "I’m on it" posts, on an enquiry's notification. */
  ack?: string;
}

export interface NotificationToShow {
  title: string;
  options: {
    body: string;
    tag: string;
    data: NotificationData;
    actions: { action: string; title: string }[];
    requireInteraction: boolean;
    renotify: boolean;
    icon: string;
  };
}

const text = (value: unknown, max = 200): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, max) : undefined;

/** A path of the owner's pages, or the inbox: never another site or a public page. */
export function ownerPath(value: unknown): string {
  if (typeof value !== 'string') return INBOX;
  if (value !== INBOX && !value.startsWith(`${INBOX}/`)) return INBOX;
  // `/admin/../blog` and the like: only what stays under /admin once read as a URL.
  const url = new URL(value, 'https://owner.invalid');
  const path = url.pathname;
  return url.origin === 'https://owner.invalid' && (path === INBOX || path.startsWith(`${INBOX}/`))
    ? `${path}${url.search}`
    : INBOX;
}

/** The acknowledgement endpoint of an enquiry (POST, the owner's session). */
export function ackPath(id: string): string {
  return `/admin/leads/${id}/ack`;
}

function show(
  title: string,
  body: string,
  tag: string,
  data: NotificationData,
  extra: Partial<NotificationToShow['options']> = {},
): NotificationToShow {
  return {
    title,
    options: {
      body,
      tag,
      data,
      actions: [],
      requireInteraction: false,
      renotify: false,
      icon: ICON,
      ...extra,
    },
  };
}

/** The notification a push's payload (its JSON, read) shows. */
export function notificationFor(payload: unknown): NotificationToShow {
  const message = (typeof payload === 'object' && payload !== null ? payload : {}) as Record<
    string,
    unknown
  >;
  if (message.type === 'lead') {
    const id = typeof message.id === 'string' && LEAD_ID.test(message.id) ? message.id : undefined;
    const name = text(message.name, 100);
    if (id && name) {
      const urgent = message.urgent === true;
      const escalated = message.escalated === true;
      const service = text(message.service, 100) ?? 'An enquiry';
      return show(
        urgent ? `URGENT: glass broken now. ${name}` : `New enquiry: ${name}`,
        escalated ? `Still unanswered. ${service}` : service,
        id,
        { url: ownerPath(message.url), ack: ackPath(id) },
        {
          actions: [{ action: ACK_ACTION, title: 'I’m on it' }],
          // An urgent one stays on screen until the owner does something with it.
          requireInteraction: urgent,
          // Pushed again in the first one's place: the phone alerts again.
          renotify: escalated,
        },
      );
    }
  }
  if (message.type === 'notice') {
    const title = text(message.title, 100);
    if (title) {
      return show(title, text(message.body) ?? '', text(message.tag, 100) ?? 'notice', {
        url: ownerPath(message.url),
      });
    }
  }
  return show('Something new on your website', 'Open your enquiries to see it.', 'other', {
    url: INBOX,
  });
}

/** What a tap needs of the worker: its clients (the open windows), fetch, and the site's origin. */
export interface WindowLike {
  url: string;
  focus(): Promise<WindowLike>;
  navigate(url: string): Promise<WindowLike | null>;
}

export interface ClickDeps {
  origin: string;
  fetch: (url: string, init: RequestInit) => Promise<Response>;
  clients: {
    matchAll(options: {
      type: 'window';
      includeUncontrolled: boolean;
    }): Promise<readonly WindowLike[]>;
    openWindow(url: string): Promise<unknown>;
  };
}

/**
 * A tap on a notification (`action` empty) or on its "I’m on it" (ACK_ACTION):
 * "I’m on it" first posts the acknowledgement (the owner's session goes with
 * it, and the browser sends the site's Origin, which the gate asks of every
 * change); then the page the notification is about is shown, in an owner's
 * page already open when there is one, else in a new window.
 */
export async function answerClick(action: string, data: unknown, deps: ClickDeps): Promise<void> {
  const read = (typeof data === 'object' && data !== null ? data : {}) as Record<string, unknown>;
  const page = new URL(ownerPath(read.url), deps.origin).href;
  if (action === ACK_ACTION && typeof read.ack === 'string' && ACK_PATH.test(read.ack)) {
    try {
      await deps.fetch(new URL(read.ack, deps.origin).href, {
        method: 'POST',
        credentials: 'same-origin',
        // Answered with JSON (a form post's answer is a redirect to the lead).
        headers: { accept: 'application/json' },
        redirect: 'manual',
      });
    } catch {
      // Offline, or the site did not answer: the lead's page still has the button.
    }
  }
  await showPage(page, deps);
}

async function showPage(page: string, deps: ClickDeps): Promise<void> {
  const windows = await deps.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const owners = windows.filter((client) => {
    const url = new URL(client.url);
    return (
      url.origin === deps.origin && (url.pathname === INBOX || url.pathname.startsWith(`${INBOX}/`))
    );
  });
  const open = owners.find((client) => client.url === page) ?? owners[0];
  if (open) {
    try {
      const focused = await open.focus();
      if (focused.url !== page) await focused.navigate(page);
      return;
    } catch {
      // A window this worker does not control cannot be led elsewhere: open one.
    }
  }
  await deps.clients.openWindow(page);
}

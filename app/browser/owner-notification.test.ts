import { describe, expect, it, vi } from 'vitest';
import {
  ACK_ACTION,
  answerClick,
  notificationFor,
  type ClickDeps,
  type WindowLike,
} from './owner-notification.ts';

/**
 * What the owner's service worker (owner-sw.ts) shows for each push, and
 * what a tap on it does, as plain functions: the worker only wires them to
 * its events. e2e/owner-notifications.spec.ts runs the worker itself in
 * Chromium.
 */

const ID = '8c6f0d7e-1c2b-4a5d-9e8f-0a1b2c3d4e5f';
const lead = {
  type: 'lead',
  id: ID,
  name: 'Aroha Ngata',
  service: 'Windows',
  urgent: false,
  url: `/admin/leads/${ID}`,
};

describe('notificationFor', () => {
  it('shows an enquiry by name and service, tagged by the lead, with "I’m on it"', () => {
    const shown = notificationFor(lead);
    expect(shown.title).toBe('New enquiry: Aroha Ngata');
    expect(shown.options.body).toBe('Windows');
    expect(shown.options.tag).toBe(ID);
    expect(shown.options.data).toEqual({
      url: `/admin/leads/${ID}`,
      ack: `/admin/leads/${ID}/ack`,
    });
    expect(shown.options.actions).toEqual([{ action: ACK_ACTION, title: 'I’m on it' }]);
    expect(shown.options.requireInteraction).toBe(false);
    expect(shown.options.icon).toBe('/admin/icons/icon-192.png');
  });

  it('says an urgent one is urgent first, and keeps it on screen', () => {
    const shown = notificationFor({ ...lead, urgent: true });
    expect(shown.title).toBe('URGENT: glass broken now. Aroha Ngata');
    expect(shown.options.body).toBe('Windows');
    expect(shown.options.requireInteraction).toBe(true);
  });

  it('says a lead pushed again is still unanswered, and alerts again in its place', () => {
    const shown = notificationFor({ ...lead, urgent: true, escalated: true });
    expect(shown.title).toMatch(/^URGENT: glass broken now\. Aroha Ngata/);
    expect(shown.options.body).toBe('Still unanswered. Windows');
    expect(shown.options.tag).toBe(ID);
    expect(shown.options.renotify).toBe(true);
  });

  it('shows a notice as it is told, opening the page it names', () => {
    const shown = notificationFor({
      type: 'notice',
      title: 'Enquiry e-mails are failing',
      body: 'Enquiries still arrive here.',
      url: '/admin',
    });
    expect(shown.title).toBe('Enquiry e-mails are failing');
    expect(shown.options.body).toBe('Enquiries still arrive here.');
    expect(shown.options.data).toEqual({ url: '/admin' });
    expect(shown.options.actions).toEqual([]);
    expect(shown.options.tag).toBe('notice');
  });

  it('never opens a page outside the owner’s pages, and shows something for a push it cannot read', () => {
    for (const url of [
      'https://elsewhere.example/admin',
      '//elsewhere.example/admin',
      '/blog',
      '/administrator',
      'javascript:alert(1)',
    ]) {
      expect(notificationFor({ ...lead, url }).options.data.url, url).toBe('/admin');
    }
    for (const payload of [
      undefined,
      null,
      'text',
      { type: 'other' },
      { type: 'lead' },
      { ...lead, id: '../sign-out' },
    ]) {
      const shown = notificationFor(payload);
      expect(shown.title).toBe('Something new on your website');
      expect(shown.options.data).toEqual({ url: '/admin' });
    }
  });
});

function windows(...urls: string[]) {
  const opened: string[] = [];
  const focused: string[] = [];
  const navigated: string[] = [];
  const list: WindowLike[] = urls.map((url) => {
    const client: WindowLike = {
      url,
      focus: async () => {
        focused.push(client.url);
        return client;
      },
      navigate: async (to: string) => {
        navigated.push(to);
        client.url = to;
        return client;
      },
    };
    return client;
  });
  const deps: ClickDeps = {
    origin: 'https://glass.example.nz',
    fetch: vi.fn(async () => new Response(null, { status: 303 })),
    clients: {
      matchAll: async () => list,
      openWindow: async (url: string) => {
        opened.push(url);
        return null;
      },
    },
  };
  return { deps, opened, focused, navigated };
}

describe('answerClick', () => {
  const data = { url: `/admin/leads/${ID}`, ack: `/admin/leads/${ID}/ack` };
  const page = `https://glass.example.nz/admin/leads/${ID}`;

  it('opens the lead when no owner’s page is open', async () => {
    const { deps, opened } = windows('https://glass.example.nz/about');
    await answerClick('', data, deps);
    expect(opened).toEqual([page]);
    expect(deps.fetch).not.toHaveBeenCalled();
  });

  it('brings an open owner’s page to the front, on the lead', async () => {
    const { deps, opened, focused, navigated } = windows('https://glass.example.nz/admin');
    await answerClick('', data, deps);
    expect(focused).toEqual(['https://glass.example.nz/admin']);
    expect(navigated).toEqual([page]);
    expect(opened).toEqual([]);
  });

  it('"I’m on it" tells the site first, then shows the lead', async () => {
    const { deps, opened } = windows();
    await answerClick(ACK_ACTION, data, deps);
    expect(deps.fetch).toHaveBeenCalledWith(`https://glass.example.nz/admin/leads/${ID}/ack`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { accept: 'application/json' },
      redirect: 'manual',
    });
    expect(opened).toEqual([page]);
  });

  it('still shows the lead when the site cannot be told, and opens one when focusing fails', async () => {
    const { deps, opened } = windows('https://glass.example.nz/admin');
    deps.fetch = vi.fn(async () => {
      throw new TypeError('offline');
    });
    const [open] = await deps.clients.matchAll({ type: 'window', includeUncontrolled: true });
    open!.navigate = async () => {
      throw new TypeError('not controlled');
    };
    await answerClick(ACK_ACTION, data, deps);
    expect(opened).toEqual([page]);
  });

  it('opens the inbox for data it cannot read', async () => {
    const { deps, opened } = windows();
    await answerClick(
      ACK_ACTION,
      { url: 'https://elsewhere.example/', ack: '/admin/sign-out' },
      deps,
    );
    expect(deps.fetch).not.toHaveBeenCalled();
    expect(opened).toEqual(['https://glass.example.nz/admin']);
  });
});

import type { Page } from '@playwright/test';

/** One gtag('event', name, params) call. */
export interface TagEvent {
  name: string;
  params: Record<string, unknown>;
}

export interface TagRecord {
  /** Every event queued for the tag, on every document the page has shown, in order. */
  events(): TagEvent[];
  /** The events of the document the page shows now (since it last loaded one). */
  eventsOfThisDocument(): TagEvent[];
  /** How many documents the page has loaded so far. */
  documents(): number;
}

const BINDING = '__recordTagQueue';

/**
 * Records what the site queues for the analytics tag (gtag.js reads
 * window.dataLayer, so that is the record), across page loads: a lead form
 * moves on to /thank-you with a page load, which starts a new dataLayer, and
 * a test must still see the form's events before the thank-you page's. Call
 * before the page loads anything.
 */
export async function recordTag(page: Page): Promise<TagRecord> {
  const record: Array<{ document: number; args: unknown[] }> = [];
  let documents = 0;
  await page.exposeBinding(BINDING, (_source, args: unknown[] | null) => {
    if (args === null) documents += 1;
    else record.push({ document: documents, args });
  });
  await page.addInitScript((binding) => {
    if (window !== window.top) return;
    const send = (window as unknown as Record<string, (args: unknown[] | null) => void>)[binding]!;
    send(null);
    const layer: unknown[] = [];
    const push = layer.push.bind(layer);
    layer.push = (...entries: unknown[]) => {
      for (const entry of entries) send(Array.from(entry as ArrayLike<unknown>));
      return push(...entries);
    };
    window.dataLayer = layer;
  }, BINDING);
  const asEvents = (entries: typeof record) =>
    entries
      .map((entry) => entry.args)
      .filter((args) => args[0] === 'event')
      .map((args) => ({ name: args[1] as string, params: args[2] as Record<string, unknown> }));
  return {
    events: () => asEvents(record),
    eventsOfThisDocument: () => asEvents(record.filter((entry) => entry.document === documents)),
    documents: () => documents,
  };
}

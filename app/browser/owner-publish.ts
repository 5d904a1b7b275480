/**
 * The publishing bar's script (app/components/admin/SitePublishBar.astro):
 * while a version is on its way it asks /admin/site/status, and shows what
 * the server says until the version is live or its build failed; a tap on
 * Publish hides the button at once, so nobody publishes twice. No
 * framework: the page works the same without it, on a reload.
 */

interface Status {
  state: 'live' | 'publishing' | 'failed';
  changes: number;
  canPublish: boolean;
  message: string;
}

/** Between two questions: long enough to cost nothing, short enough to feel live. */
const ASK_EVERY_MS = 1500;

const bar = document.querySelector<HTMLElement>('[data-publish-bar]');
const text = bar?.querySelector<HTMLElement>('[data-publish-message]');
const form = bar?.querySelector<HTMLFormElement>('[data-publish-form]');

function show(status: Status): void {
  if (!bar || !text || !form) return;
  bar.dataset.state = status.state;
  bar.dataset.changes = String(status.changes);
  if (text.textContent !== status.message) text.textContent = status.message;
  form.hidden = !status.canPublish;
}

async function follow(): Promise<void> {
  try {
    const answer = await fetch('/admin/site/status', {
      headers: { accept: 'application/json' },
      cache: 'no-store',
    });
    // Signed out meanwhile (the sign-in page answers): stop asking.
    if (!answer.ok || !answer.headers.get('content-type')?.includes('json')) return;
    const status = (await answer.json()) as Status;
    show(status);
    if (status.state === 'publishing') setTimeout(() => void follow(), ASK_EVERY_MS);
  } catch {
    // Offline for a moment: ask again.
    setTimeout(() => void follow(), ASK_EVERY_MS * 2);
  }
}

form?.addEventListener('submit', () => {
  // The post goes on; the button goes, so a second tap publishes nothing.
  queueMicrotask(() => {
    form.hidden = true;
  });
});

if (bar?.dataset.state === 'publishing') setTimeout(() => void follow(), ASK_EVERY_MS);

import {
  browserSupportsWebAuthn,
  startAuthentication,
  startRegistration,
  WebAuthnError,
} from '@simplewebauthn/browser';

/**
 * The passkey step of the owner's pages (app/pages/admin/setup/[token].astro
 * and app/pages/admin/sign-in/index.astro), the one part of them that needs
 * JavaScript: SimpleWebAuthn asks the browser for a passkey with options
 * from the server, and the server checks the answer
 * (app/owner/passkeys.server.ts). Each page holds a `[data-passkey]`
 * section: its button, its status line, and the endpoints in `data-options`
 * and `data-verify`. It is in its place from the first paint wherever
 * JavaScript runs (app/styles/admin.css hides it only where scripting is
 * off), so nothing moves when this arrives; in a browser without passkeys
 * this hides it and shows the `[data-passkey-unsupported]` note instead.
 */

interface ServerAnswer {
  ok?: boolean;
  message?: string;
  next?: string;
}

async function post(url: string, body: unknown): Promise<{ status: number; answer: ServerAnswer }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
    credentials: 'same-origin',
  });
  const answer = (await response.json().catch(() => ({}))) as ServerAnswer;
  return { status: response.status, answer };
}

function describeBrowserError(error: unknown, creating: boolean): string {
  if (
    error instanceof WebAuthnError &&
    error.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED'
  ) {
    return 'This device already holds a passkey for you. Sign in with it instead.';
  }
  if (error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError')) {
    return creating
      ? 'Creating the passkey was cancelled or took too long. Try again when you are ready.'
      : 'Signing in was cancelled or took too long. Try again when you are ready.';
  }
  return creating
    ? 'This browser could not create a passkey. Try again, or try another browser or device.'
    : 'This browser could not use a passkey. Try again, or ask for a sign-in link by e-mail.';
}

export function startPasskeyStep(section: HTMLElement): void {
  const button = section.querySelector<HTMLButtonElement>('button[data-passkey-start]');
  const status = section.querySelector<HTMLElement>('[data-passkey-status]');
  const optionsUrl = section.dataset.options;
  const verifyUrl = section.dataset.verify;
  const creating = section.dataset.passkey === 'create';
  if (!button || !status || !optionsUrl || !verifyUrl) return;

  if (!browserSupportsWebAuthn()) {
    section.hidden = true;
    const unsupported = document.querySelector<HTMLElement>('[data-passkey-unsupported]');
    if (unsupported) unsupported.hidden = false;
    return;
  }

  const say = (text: string, error = false) => {
    status.textContent = text;
    status.classList.toggle('admin-message--error', error);
    status.hidden = text === '';
  };

  button.addEventListener('click', async () => {
    button.disabled = true;
    say(
      creating
        ? 'Follow your device’s prompt to create the passkey…'
        : 'Follow your device’s prompt…',
    );
    try {
      const options = await post(optionsUrl, {});
      if (options.status !== 200 || !options.answer.ok) {
        say(options.answer.message ?? 'Something went wrong. Reload the page and try again.', true);
        return;
      }
      const optionsJSON = (options.answer as { options: never }).options;
      let response: unknown;
      try {
        response = creating
          ? await startRegistration({ optionsJSON })
          : await startAuthentication({ optionsJSON });
      } catch (error) {
        say(describeBrowserError(error, creating), true);
        return;
      }
      const verified = await post(verifyUrl, { response });
      if (verified.status !== 200 || !verified.answer.ok) {
        say(
          verified.answer.message ?? 'Something went wrong. Reload the page and try again.',
          true,
        );
        return;
      }
      say(
        creating
          ? 'Passkey created. Opening your enquiries…'
          : 'Signed in. Opening your enquiries…',
      );
      location.assign(verified.answer.next ?? '/admin');
    } catch {
      say('The website could not be reached. Check the connection and try again.', true);
    } finally {
      button.disabled = false;
    }
  });
}

for (const section of document.querySelectorAll<HTMLElement>('[data-passkey]')) {
  startPasskeyStep(section);
}

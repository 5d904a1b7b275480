// @vitest-environment jsdom
import { resolveObjectURL } from 'node:buffer';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cleanup, configure, fireEvent, render, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  HONEYPOT_FIELD,
  PHOTO_COUNT_MESSAGE,
  PHOTO_RULES,
  PHOTO_SIZE_MESSAGE,
  PHOTO_TYPE_MESSAGE,
  PHOTO_UNREADABLE_MESSAGE,
  PHOTOS_FIELD,
  SUBMIT_FAILED_MESSAGE,
} from '../../leads/intake/form-rules.ts';
import { LEAD_ACCEPTED_EVENT } from '../../leads/intake/form-submission.ts';
import { CallbackForm } from './CallbackForm.tsx';
import { EnquiryForm } from './EnquiryForm.tsx';
import { leadRequestBody } from './submit-lead-form.ts';

/**
 * The photo picker of the contact and quote forms (docs/forms.md#photos,
 * docs/interactive-parts.md#photo-picker). The browser tests
 * (e2e/lead-photos-form.spec.ts) read the multipart body a real browser
 * sends; jsdom cannot hand its FormData to Node's fetch, so here
 * leadRequestBody shows what that body holds.
 */

configure({ asyncUtilTimeout: 30_000 });

interface Posted {
  path: string | undefined;
  headers: IncomingHttpHeaders;
  /** The names of a URL-encoded body, in the order posted. */
  names: string[];
}

/** A real HTTP server standing in for the site; it answers what the test sets. */
let page: { server: Server; url: string };
const posts: Posted[] = [];
const failed = { status: 502, body: { error: SUBMIT_FAILED_MESSAGE } as object };
let answer = failed;

beforeAll(async () => {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      posts.push({ path: req.url, headers: req.headers, names: [...body.keys()] });
      res.writeHead(answer.status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  page = { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
});

afterAll(async () => {
  page.server.closeAllConnections();
  await new Promise((resolve) => page.server.close(resolve));
});

beforeEach(() => {
  posts.length = 0;
  answer = failed;
});

afterEach(() => cleanup());

const jpeg = (name: string, bytes = 2048) =>
  new File([new Uint8Array(bytes)], name, { type: 'image/jpeg' });

function renderForm(action = '/quote') {
  render(
    <main>
      <EnquiryForm source="quote_form" action={action} />
    </main>,
  );
  const form = document.querySelector('form')!;
  const input = within(form).getByLabelText(/^Photos/) as HTMLInputElement;
  return { form, input };
}

function choose(input: HTMLInputElement, files: File[]) {
  fireEvent.change(input, { target: { files } });
}

const names = (form: HTMLElement) =>
  within(form)
    .queryAllByRole('listitem')
    .map((item) => item.querySelector('.photo-picker__name')?.textContent);

const removeButtons = (form: HTMLElement) =>
  within(form)
    .queryAllByRole('button', { name: /^Remove photo/ })
    .map((button) => button.getAttribute('aria-label'));

const status = (form: HTMLElement) => within(form).getByRole('status').textContent;

/** The picker's message beside the field, and whether the field points to it. */
function fieldMessage(input: HTMLInputElement) {
  const ids = input.getAttribute('aria-describedby')?.split(' ') ?? [];
  const texts = ids.map((id) => document.getElementById(id)?.textContent);
  return { invalid: input.getAttribute('aria-invalid'), described: texts };
}

describe('the Photos field', () => {
  it('an optional, labelled file input of the three types, with its hint; the form posts multipart to its page', () => {
    const { form, input } = renderForm();
    expect(form.getAttribute('enctype')).toBe('multipart/form-data');
    expect(form.getAttribute('action')).toBe('/quote');
    expect(form.getAttribute('method')).toBe('post');
    expect(input.type).toBe('file');
    expect(input.name).toBe(PHOTOS_FIELD);
    expect(input.multiple).toBe(true);
    expect(input.required).toBe(false);
    expect(input.accept).toBe('image/jpeg,image/png,image/webp');
    expect(input.labels?.[0]?.textContent).toBe('Photos (optional)');
    expect(fieldMessage(input).described).toEqual([
      'Up to 3 photos, JPEG, PNG or WebP, 10 MB each. A photo of the broken pane helps us quote faster.',
    ]);
    expect(within(form).getByText('All fields are required unless marked optional.')).toBeTruthy();
    // Once the form runs: the 'Add photos' button, a second label of the input.
    expect(input.labels?.[1]?.textContent).toBe('Add photos');
  });

  it('the home call-back form has no photos and stays URL-encoded', () => {
    render(<CallbackForm action="/" />);
    const form = document.querySelector('form')!;
    expect(form.getAttribute('enctype')).toBeNull();
    expect(form.querySelector('input[type="file"]')).toBeNull();
  });
});

describe('choosing and removing photos', () => {
  it('adds each choice to the earlier ones, up to 3; the fourth is refused with the count message beside the field', () => {
    const { form, input } = renderForm();
    choose(input, [jpeg('a.jpg'), jpeg('b.jpg')]);
    expect(names(form)).toEqual(['a.jpg', 'b.jpg']);
    expect(status(form)).toBe('2 photos added. 2 of 3 photos chosen.');
    expect(fieldMessage(input).invalid).toBeNull();
    // Emptied, so the same file can be chosen again and nothing is sent twice.
    expect(input.value).toBe('');

    choose(input, [jpeg('c.jpg'), jpeg('d.jpg')]);
    expect(names(form)).toEqual(['a.jpg', 'b.jpg', 'c.jpg']);
    expect(status(form)).toBe(`Photo added: c.jpg. 3 of 3 photos chosen. ${PHOTO_COUNT_MESSAGE}`);
    expect(fieldMessage(input)).toEqual({
      invalid: 'true',
      described: [expect.stringMatching(/^Up to 3 photos/), PHOTO_COUNT_MESSAGE],
    });
    // Each with its thumbnail, an object URL of the photo.
    for (const image of form.querySelectorAll('li img')) {
      expect(image.getAttribute('alt')).toBe('');
      expect(resolveObjectURL(image.getAttribute('src')!)?.size).toBe(2048);
    }
  });

  it('a photo of another type or over 10 MB is left out with its message; the others are kept', () => {
    const { form, input } = renderForm();
    const gif = new File([new Uint8Array(10)], 'anim.gif', { type: 'image/gif' });
    const heic = new File([new Uint8Array(10)], 'IMG_1.HEIC', { type: '' });
    choose(input, [gif, jpeg('ok.jpg'), heic]);
    expect(names(form)).toEqual(['ok.jpg']);
    expect(fieldMessage(input).described).toContain(PHOTO_TYPE_MESSAGE);

    const large = jpeg('huge.jpg', PHOTO_RULES.maxBytes + 1);
    const png = new File([new Uint8Array(PHOTO_RULES.maxBytes)], 'max.png', { type: 'image/png' });
    choose(input, [large, png]);
    expect(names(form)).toEqual(['ok.jpg', 'max.png']);
    expect(fieldMessage(input).described).toContain(PHOTO_SIZE_MESSAGE);
    expect(status(form)).toBe(`Photo added: max.png. 2 of 3 photos chosen. ${PHOTO_SIZE_MESSAGE}`);

    // A choice that passes clears the message.
    choose(input, [new File([new Uint8Array(10)], 'w.webp', { type: 'image/webp' })]);
    expect(fieldMessage(input)).toEqual({
      invalid: null,
      described: [expect.stringMatching(/^Up to 3 photos/)],
    });
  });

  it('Remove names its photo, revokes its thumbnail, says so politely, and moves focus to the next Remove button, then the previous, then the input', async () => {
    const { form, input } = renderForm();
    choose(input, [jpeg('IMG_1.jpg'), jpeg('IMG_2.jpg'), jpeg('IMG_3.jpg')]);
    expect(removeButtons(form)).toEqual([
      'Remove photo 1: IMG_1.jpg',
      'Remove photo 2: IMG_2.jpg',
      'Remove photo 3: IMG_3.jpg',
    ]);
    const second = form.querySelectorAll('li img')[1]!.getAttribute('src')!;

    fireEvent.click(within(form).getByRole('button', { name: 'Remove photo 2: IMG_2.jpg' }));
    expect(names(form)).toEqual(['IMG_1.jpg', 'IMG_3.jpg']);
    expect(resolveObjectURL(second)).toBeUndefined();
    expect(status(form)).toBe('Removed photo 2: IMG_2.jpg. 2 of 3 photos chosen.');
    await waitFor(() =>
      expect(document.activeElement?.getAttribute('aria-label')).toBe('Remove photo 2: IMG_3.jpg'),
    );

    fireEvent.click(within(form).getByRole('button', { name: 'Remove photo 2: IMG_3.jpg' }));
    await waitFor(() =>
      expect(document.activeElement?.getAttribute('aria-label')).toBe('Remove photo 1: IMG_1.jpg'),
    );
    fireEvent.click(within(form).getByRole('button', { name: 'Remove photo 1: IMG_1.jpg' }));
    expect(status(form)).toBe('Removed photo 1: IMG_1.jpg. No photos chosen.');
    expect(within(form).queryByRole('list')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(input));
  });

  it('a removal makes room again and clears the count message; leaving the page revokes every thumbnail', () => {
    const { form, input } = renderForm();
    choose(input, [jpeg('1.jpg'), jpeg('2.jpg'), jpeg('3.jpg'), jpeg('4.jpg')]);
    expect(fieldMessage(input).described).toContain(PHOTO_COUNT_MESSAGE);
    fireEvent.click(within(form).getByRole('button', { name: 'Remove photo 1: 1.jpg' }));
    expect(fieldMessage(input).invalid).toBeNull();
    choose(input, [jpeg('4.jpg')]);
    expect(names(form)).toEqual(['2.jpg', '3.jpg', '4.jpg']);

    const urls = [...form.querySelectorAll('li img')].map((image) => image.getAttribute('src')!);
    expect(urls.every((url) => resolveObjectURL(url))).toBe(true);
    cleanup();
    expect(urls.map((url) => resolveObjectURL(url))).toEqual([undefined, undefined, undefined]);
  });
});

describe('the request the form sends', () => {
  function fill(form: HTMLElement) {
    const values = {
      Name: 'Aroha Ngata',
      Email: 'aroha@example.co.nz',
      Phone: '021 555 0101',
      Message: 'A cracked pane in the lounge window.',
    };
    for (const [label, value] of Object.entries(values)) {
      fireEvent.change(within(form).getByLabelText(label), { target: { value } });
    }
    fireEvent.change(within(form).getByLabelText('Service'), { target: { value: 'Windows' } });
  }

  const TEXT_FIELDS = [
    'name',
    'email',
    'phone',
    'service',
    'message',
    HONEYPOT_FIELD,
    'idempotency_key',
    'form',
  ];

  it("without photos: today's URL-encoded post, with no photos field", async () => {
    const { form } = renderForm(`${page.url}/quote`);
    fill(form);
    await waitFor(() =>
      expect(form.querySelector<HTMLInputElement>('input[name="idempotency_key"]')!.value).not.toBe(
        '',
      ),
    );
    fireEvent.submit(form);
    await within(form).findByRole('alert');
    expect(posts).toHaveLength(1);
    const [{ path, headers, names: posted }] = posts as [Posted];
    expect(path).toBe('/api/leads');
    expect(headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(headers.accept).toBe('application/json');
    expect(posted).toEqual(TEXT_FIELDS);
  });

  it('with photos: the post to /api/leads is no longer URL-encoded, keeps its Accept, and a failure keeps the photos', async () => {
    const { form, input } = renderForm(`${page.url}/quote`);
    fill(form);
    choose(input, [jpeg('a.jpg'), new File([new Uint8Array(8)], 'b.png', { type: 'image/png' })]);
    fireEvent.click(within(form).getByRole('button', { name: 'Remove photo 1: a.jpg' }));
    choose(input, [new File([new Uint8Array(8)], 'c.webp', { type: 'image/webp' })]);
    fireEvent.submit(form);
    expect((await within(form).findByRole('alert')).textContent).toBe(SUBMIT_FAILED_MESSAGE);
    expect(posts).toHaveLength(1);
    const [{ path, headers }] = posts as [Posted];
    expect(path).toBe('/api/leads');
    expect(headers.accept).toBe('application/json');
    // jsdom's FormData reaches Node's fetch as text; a browser sends it as
    // multipart, which e2e/lead-photos-form.spec.ts reads part by part.
    expect(headers['content-type']).not.toMatch(/^application\/x-www-form-urlencoded/);
    expect(names(form)).toEqual(['b.png', 'c.webp']);
  });

  it('with photos, success still sends the analytics events and renews the key', async () => {
    answer = { status: 201, body: { id: 'x', created_at: '2025-03-01T01:02:03.456Z' } };
    const recorded: unknown[][] = [];
    window.gtag = (...args: unknown[]) => void recorded.push(args);
    const heard: unknown[] = [];
    const onAccepted = (event: Event) => heard.push((event as CustomEvent).detail);
    window.addEventListener(LEAD_ACCEPTED_EVENT, onAccepted);
    try {
      const { form, input } = renderForm(`${page.url}/contact`);
      fill(form);
      choose(input, [jpeg('a.jpg')]);
      const key = form.querySelector<HTMLInputElement>('input[name="idempotency_key"]')!;
      await waitFor(() => expect(key.value).not.toBe(''));
      const sent = key.value;
      fireEvent.submit(form);
      await waitFor(() =>
        expect(recorded.map((args) => args[1])).toEqual(['form_submit', 'conversion']),
      );
      expect(heard).toEqual([sent]);
      await waitFor(() => expect(key.value).not.toBe(sent));
    } finally {
      window.removeEventListener(LEAD_ACCEPTED_EVENT, onAccepted);
      delete window.gtag;
      delete window.dataLayer;
    }
  });

  it("leadRequestBody: each photo under its own name; a browser's empty file entry is no photo", () => {
    const data = new FormData();
    data.append('name', 'Aroha');
    data.append(PHOTOS_FIELD, new File([], ''));
    data.append('message', 'Hi');
    expect(leadRequestBody(data, 'contact_form')).toBeInstanceOf(URLSearchParams);
    expect(String(leadRequestBody(data, 'contact_form'))).toBe(
      'name=Aroha&message=Hi&form=contact_form',
    );

    data.append(PHOTOS_FIELD, jpeg('IMG_1234.jpg'));
    const body = leadRequestBody(data, 'contact_form') as FormData;
    expect(body).toBeInstanceOf(FormData);
    expect(
      [...body.entries()].map(([name, value]) => [
        name,
        typeof value === 'string' ? value : value.name,
      ]),
    ).toEqual([
      ['name', 'Aroha'],
      ['message', 'Hi'],
      ['form', 'contact_form'],
      ['photos', 'IMG_1234.jpg'],
    ]);
  });

  it("the API's refusal of the photos shows beside the field too, and focus goes there", async () => {
    answer = {
      status: 400,
      body: { error: PHOTO_UNREADABLE_MESSAGE, fields: { photos: PHOTO_UNREADABLE_MESSAGE } },
    };
    const { form, input } = renderForm(`${page.url}/quote`);
    fill(form);
    choose(input, [jpeg('broken.jpg')]);
    fireEvent.submit(form);
    expect((await within(form).findByRole('alert')).textContent).toBe(PHOTO_UNREADABLE_MESSAGE);
    expect(fieldMessage(input)).toEqual({
      invalid: 'true',
      described: [
        expect.stringMatching(/^Up to 3 photos/),
        PHOTO_UNREADABLE_MESSAGE,
        PHOTO_UNREADABLE_MESSAGE,
      ],
    });
    await waitFor(() => expect(document.activeElement).toBe(input));
    expect(names(form)).toEqual(['broken.jpg']);
  });

  it("a page rendered for a plain post shows the server's photos message beside the field", () => {
    render(
      <main>
        <EnquiryForm
          source="contact_form"
          action="/contact"
          result={{
            ok: false,
            error: 'One of the photos could not be read.',
            fields: { photos: 'One of the photos could not be read.' },
            values: { name: 'Aroha' },
          }}
        />
      </main>,
    );
    const form = document.querySelector('form')!;
    const input = within(form).getByLabelText(/^Photos/) as HTMLInputElement;
    const { invalid, described } = fieldMessage(input);
    expect(invalid).toBe('true');
    // The hint, the message beside the field, and the red box under the button.
    expect(described).toEqual([
      expect.stringMatching(/^Up to 3 photos/),
      'One of the photos could not be read.',
      'One of the photos could not be read.',
    ]);
    expect(within(form).getByRole('alert').textContent).toBe(
      'One of the photos could not be read.',
    );
  });
});

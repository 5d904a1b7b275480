import type { APIRoute } from 'astro';
import { jsonAnswer, readJson } from '../../owner/sign-in.server.ts';
import { ownerPage } from '../../owner/owner-page.server.ts';
import {
  addPushDevice,
  listPushDevices,
  removePushDevice,
} from '../../owner/push-devices.server.ts';

/**
 * /admin/push: the owner's devices that get a push for each enquiry
 * (docs/operations.md, "Owner's pages"; app/owner/push-devices.server.ts).
 * Owners only (the gate, then ownerPage); every change from the site's own
 * pages (the gate's origin check).
 *
 * - POST, JSON (the Notifications page's script): a browser's
 *   `PushSubscription.toJSON()` with `"notify": "all" | "urgent"`. 201
 *   with `{ ok: true }`; 400 with `{ ok: false, message }` in plain words
 *   when it cannot be used.
 * - POST, a form (works without JavaScript): `action=remove` and `device`
 *   removes one of the owner's own devices; then back to
 *   /admin/notifications, which says what happened. A form asking to turn
 *   notifications on (`action=add`, the page's button without JavaScript)
 *   is answered there with why that needs JavaScript.
 * - GET: the owner's devices as JSON for a script that asks for JSON;
 *   anyone else is sent to /admin/notifications, which lists them.
 */
export const prerender = false;

const NOTIFICATIONS = '/admin/notifications';

const isJson = (value: string | null) => (value ?? '').toLowerCase().includes('application/json');

export const GET: APIRoute = async (api) => {
  const route = await ownerPage(api);
  if (route instanceof Response) return route;
  if (!isJson(api.request.headers.get('accept'))) return api.redirect(NOTIFICATIONS, 303);
  const devices = await listPushDevices(route.context.store, route.owner.id);
  return jsonAnswer(200, {
    devices: devices.map(({ id, label, addedAt, gets }) => ({ id, label, addedAt, gets })),
  });
};

export const POST: APIRoute = async (api) => {
  const route = await ownerPage(api, { methods: ['POST'] });
  if (route instanceof Response) return route;
  const { context, owner } = route;
  const { request } = api;
  if (isJson(request.headers.get('content-type'))) {
    const added = await addPushDevice(
      context.store,
      owner,
      await readJson(request),
      request.headers.get('user-agent') ?? undefined,
    );
    return added.ok
      ? jsonAnswer(201, { ok: true })
      : jsonAnswer(400, { ok: false, message: added.message });
  }
  const form = await route.readForm();
  if (form === null) return new Response('That was too much to take in.', { status: 413 });
  if (form.get('action') === 'remove') {
    const removed = await removePushDevice(context.store, owner, form.get('device') ?? '');
    return api.redirect(`${NOTIFICATIONS}?done=${removed ? 'removed' : 'gone'}`, 303);
  }
  return api.redirect(`${NOTIFICATIONS}?done=needs-script`, 303);
};

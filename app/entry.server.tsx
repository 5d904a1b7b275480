import { PassThrough } from 'node:stream';
import { createReadableStreamFromReadable } from '@react-router/node';
import { renderToPipeableStream } from 'react-dom/server';
import { ServerRouter, type EntryContext, type RouterContextProvider } from 'react-router';
import { leadsContext } from './leads/context.ts';
import { NonceContext, nonceRouterContext } from './lib/request-context.ts';

export const streamTimeout = 5_000;

/**
 * The context keys of this build. The server must set values under these very
 * objects (a copy imported from source would be a different key), so it reads
 * them from the build: see server/app.server.ts.
 */
export const appContexts = { nonce: nonceRouterContext, leads: leadsContext };

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  if (request.method.toUpperCase() === 'HEAD') {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const nonce = loadContext.get(nonceRouterContext) || undefined;

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(
      () => abort(),
      streamTimeout + 1000,
    );

    // Every page is rendered whole before it is sent (no deferred data here),
    // which is what prerendering and crawlers need anyway.
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceContext>,
      {
        nonce,
        // Never move a large <Suspense> boundary out of place to be swapped in
        // by an inline script: the whole page is sent at once, and it must read
        // in order without JavaScript (the home page's lazily hydrated sections).
        progressiveChunkSize: Number.MAX_SAFE_INTEGER,
        onAllReady() {
          shellRendered = true;
          const body = new PassThrough({
            final(callback) {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              callback();
            },
          });
          responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
          pipe(body);
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
  });
}

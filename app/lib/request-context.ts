import { createContext as createReactContext, useContext } from 'react';
import { createContext } from 'react-router';

/**
 * The per-request CSP nonce. Server-rendered responses (404, form actions)
 * carry one; prerendered pages have none and are covered by script hashes
 * computed by the production server instead (server/csp.server.ts).
 */
export const nonceRouterContext = createContext<string>('');

export const NonceContext = createReactContext<string | undefined>(undefined);

export function useNonce(): string | undefined {
  return useContext(NonceContext);
}

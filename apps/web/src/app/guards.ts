// Route loaders that decide who may enter a screen, before any of it renders.
import { data, redirect, type LoaderFunctionArgs } from 'react-router';
import type { Action, Subject } from '@mooz/contract/permissions';
import { isSignedIn } from '../lib/stored-auth';
import { loginWithNext, paths, safeNext } from '../config/paths';
import type { RouteParamsName } from './route-params';

function requestedPath(request: Request): string {
  const url = new URL(request.url);
  return url.pathname + url.search + url.hash;
}

export function homeRedirect() {
  return redirect(isSignedIn() ? paths.dashboard : paths.login);
}

/** Login, sign-up and friends: a signed-in visitor goes on to where they were heading. */
export function guestOnly({ request }: LoaderFunctionArgs) {
  if (isSignedIn()) {
    throw redirect(safeNext(new URL(request.url).searchParams.get('next')) ?? paths.dashboard);
  }
  return null;
}

export function signedInOnly({ request }: LoaderFunctionArgs) {
  if (!isSignedIn()) throw redirect(loginWithNext(requestedPath(request)));
  return null;
}

/** Signed in and allowed by the ability (lib/ability.tsx, with CASL, loaded by the first such check). */
export function permitted(action: Action, subject: Subject) {
  return async (args: LoaderFunctionArgs) => {
    signedInOnly(args);
    const { appAbility } = await import('./signed-in');
    if (!appAbility.can(action, subject)) {
      throw redirect(`${paths.notAuthorized}?action=${action}&subject=${subject}`);
    }
    return null;
  };
}

type Guard = (args: LoaderFunctionArgs) => unknown;

/** Loaders that check the path's ids: the router's test holds every route with a parameter to it. */
export const checksParams = new WeakSet<Guard>();

/**
 * The one rule for a route with an id: after its guard (a signed-out visitor still goes to log in),
 * an id that cannot exist (app/route-params.ts) is a 404, drawn by the route's ErrorBoundary as the
 * not-found page, the same as the server's 404 for an id that does not.
 */
export function knownParams(route: RouteParamsName, guard?: Guard): Guard {
  const loader = async (args: LoaderFunctionArgs) => {
    await guard?.(args);
    const { paramsExist } = await import('./route-params');
    if (!paramsExist(route, args.params)) throw data(null, { status: 404 });
    return null;
  };
  checksParams.add(loader);
  return loader;
}

// Route loaders that decide who may enter a screen, before any of it renders.
import { redirect, type LoaderFunctionArgs } from 'react-router';
import type { Action, Subject } from '@mooz/contract/permissions';
import { isSignedIn } from '../lib/stored-auth';
import { loginWithNext, paths, safeNext } from '../config/paths';

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

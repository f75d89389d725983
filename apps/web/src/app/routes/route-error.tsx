// What a route draws when it fails (a route with an id its own 404, inside the frame around it): the
// error page, a chunk of its own. Not a lazy route property: the router fetches those with the route, so
// every first visit paid for the error page's chunk and its stylesheet. It is fetched once the page is
// idle instead, so it is at hand when a later chunk fails to load (after a deploy, or offline), and drawn
// at once then, without a Suspense boundary in the error's path.
import { useEffect, useState, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadingScreen } from '../loading-screen';

let ErrorPage: ComponentType | null = null;
let loading: Promise<ComponentType> | null = null;

function loadErrorPage(): Promise<ComponentType> {
  loading ??= import('./error-page').then(
    (module) => (ErrorPage = module.ErrorPage),
    (error: unknown) => {
      loading = null; // another try on the next error
      throw error;
    },
  );
  return loading;
}

export function RouteError() {
  const [, setLoaded] = useState(ErrorPage !== null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (ErrorPage) return;
    let current = true;
    loadErrorPage().then(
      () => current && setLoaded(true),
      () => current && setFailed(true),
    );
    return () => {
      current = false;
    };
  }, []);
  if (ErrorPage) return <ErrorPage />;
  if (failed) return <Unreachable />;
  return <LoadingScreen />;
}

/** The last resort, when not even the error page can be fetched: plain, and with a way out. */
function Unreachable() {
  const { t } = useTranslation();
  return (
    <div className="mooz-loading mooz-unreachable" role="alert" data-testid="error-page-unreachable">
      <h1>{t('error.title')}</h1>
      <p>{t('error.description')}</p>
      <button type="button" onClick={() => window.location.reload()}>
        {t('error.reload')}
      </button>
    </div>
  );
}

/** Fetches the error page once the first screen is drawn and the browser has nothing else to do. */
export function fetchErrorPageWhenIdle(): void {
  const fetchIt = () => void loadErrorPage().catch(() => undefined);
  const whenIdle = () => {
    if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(fetchIt, { timeout: 10_000 });
    else setTimeout(fetchIt, 2_000);
  };
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
}

// The translations' loader: one GET per language file with fetch, in place of i18next-http-backend (its
// XHR and ponyfill fallbacks weigh more than what every supported browser does natively). It keeps
// that backend's contract with i18next's retries: a network failure or a 5xx asks for a retry, a 4xx or a
// file that is not JSON does not.
import type { BackendModule, ReadCallback } from 'i18next';

export interface FetchBackendOptions {
  /** "{{lng}}" and "{{ns}}" are replaced by the language and the namespace. */
  loadPath?: string;
}

export class FetchBackend implements BackendModule<FetchBackendOptions> {
  static type = 'backend' as const;
  type = 'backend' as const;
  private loadPath = '/locales/{{lng}}/{{ns}}.json';

  init(_services: unknown, options: FetchBackendOptions = {}): void {
    if (options.loadPath) this.loadPath = options.loadPath;
  }

  read(language: string, namespace: string, callback: ReadCallback): void {
    const url = this.loadPath.replace('{{lng}}', language).replace('{{ns}}', namespace);
    const load = async (): Promise<{ error: string; retry: boolean } | { data: unknown }> => {
      let text: string;
      try {
        const response = await fetch(url, { credentials: 'same-origin' });
        if (!response.ok) {
          const clientError = response.status >= 400 && response.status < 500;
          return { error: `failed loading ${url}; status code: ${response.status}`, retry: !clientError };
        }
        text = await response.text();
      } catch (error) {
        return { error: `failed loading ${url}: ${error instanceof Error ? error.message : String(error)}`, retry: true };
      }
      try {
        return { data: JSON.parse(text) as unknown };
      } catch {
        return { error: `failed parsing ${url} to json`, retry: false };
      }
    };
    void load().then((result) => {
      if ('data' in result) callback(null, result.data as Parameters<ReadCallback>[1]);
      else callback(result.error, result.retry);
    });
  }
}

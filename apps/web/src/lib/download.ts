// Downloads a file an endpoint answers (a CSV export): fetched with the bearer token like every call
// (lib/api.ts, one refresh on a 401), then saved under the name the server gives in
// Content-Disposition, or `fallbackName`.
import { pathOf, type Endpoint } from '@mooz/contract/endpoint';
import { messages } from '@mooz/contract/messages';
import { ApiError, getAccessToken, refreshAccessToken } from './api';

const baseUrl = (import.meta.env.VITE_API_URL as string | undefined) ?? '';

/** The file name of a Content-Disposition header: the exact UTF-8 one when given, else the plain one. */
export function fileNameOf(disposition: string | null): string | null {
  if (!disposition) return null;
  const exact = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
  if (exact) {
    try {
      return decodeURIComponent(exact);
    } catch {
      // Fall through to the plain name.
    }
  }
  return /filename="([^"]+)"/i.exec(disposition)?.[1] ?? null;
}

async function fetchWith(path: string, token: string | null) {
  try {
    return await fetch(baseUrl + path, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  } catch {
    throw new ApiError(messages.connectionFailed, 0);
  }
}

export async function downloadFile(route: Pick<Endpoint, 'path'>, params: Record<string, string | number>, fallbackName: string): Promise<string> {
  const path = pathOf(route, params);
  let response = await fetchWith(path, getAccessToken());
  if (response.status === 401) response = await fetchWith(path, await refreshAccessToken());
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { message?: string } | null;
    throw new ApiError(body?.message ?? messages.unexpected, response.status, body);
  }
  const name = fileNameOf(response.headers.get('content-disposition')) ?? fallbackName;
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has handed the file over.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
  return name;
}

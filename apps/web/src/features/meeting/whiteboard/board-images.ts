// The pages of a class session's board saved as PNG on the session, from the host's tab
// (loaded with the board): a page is saved a few seconds after its drawing last changed, and at once
// when the class moves to another page or the board closes, so that after the class each page the
// class drew on is there for its students, however the class ended.
import { exportToBlob } from '@excalidraw/excalidraw';
import type { ExcalidrawImperativeAPI } from '@excalidraw/excalidraw/types';
import { apiRoutes } from '@mooz/contract/api-routes';
import { whiteboardLimits } from '@mooz/contract/whiteboard';
import { call } from '../../../lib/api';

/** How long a page's drawing rests before its picture is saved. */
const SAVE_AFTER_MS = 4_000;

async function base64Of(blob: Blob): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

async function savePage(api: ExcalidrawImperativeAPI, roomId: string, page: number) {
  const elements = api.getSceneElements();
  if (!elements.length) return;
  const blob = await exportToBlob({
    elements,
    files: api.getFiles(),
    appState: { exportBackground: true, viewBackgroundColor: '#ffffff' },
    mimeType: 'image/png',
    // Large boards are scaled down to what one PNG may weigh.
    maxWidthOrHeight: 2400,
  });
  if (blob.size > whiteboardLimits.snapshotMaxBytes) return;
  await call(apiRoutes.sessions.saveWhiteboardImage, { params: { roomId, page }, body: { png: await base64Of(blob) } });
}

/** Saves page `page` as it changes, until the returned function is called (which saves it once more if it changed). */
export function keepPageSaved(api: ExcalidrawImperativeAPI, roomId: string, page: number): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let lastVersion = -1;
  let dirty = false;
  const save = () => {
    timer = undefined;
    dirty = false;
    // A failed save (offline for a moment) is tried again at the next change.
    savePage(api, roomId, page).catch(() => (dirty = true));
  };
  const stop = api.onChange((elements) => {
    const version = elements.reduce((sum, element) => sum + element.version, 0);
    if (version === lastVersion) return;
    // The first call is the page as loaded: nothing to save yet.
    const first = lastVersion === -1;
    lastVersion = version;
    if (first) return;
    dirty = true;
    clearTimeout(timer);
    timer = setTimeout(save, SAVE_AFTER_MS);
  });
  return () => {
    stop();
    clearTimeout(timer);
    if (dirty) save();
  };
}

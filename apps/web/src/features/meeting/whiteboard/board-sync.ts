// One page of the board between Excalidraw and its Yjs document (loaded with the board only). Each
// page is a Y.Doc whose `elements` map holds every Excalidraw element by id, as plain JSON; an element
// is written when this tab's copy is newer (Excalidraw bumps `version` on every change), and what
// others write is merged into the scene with Excalidraw's own reconcile, which keeps what this tab is
// drawing right now. Changes go to the server as they happen (a few tens of ms apart while drawing),
// and this tab's changes that did not get through are sent again when the page is next fetched (a
// reconnect), so nothing drawn offline is lost.
import * as Y from 'yjs';
import { CaptureUpdateAction, reconcileElements } from '@excalidraw/excalidraw';
import type { ExcalidrawElement, OrderedExcalidrawElement } from '@excalidraw/excalidraw/element/types';
import type { ExcalidrawImperativeAPI } from '@excalidraw/excalidraw/types';
import { fetchPage, onWhiteboardUpdate, sendUpdate } from './whiteboard-link';

/** How long changes gather before they are sent: well under a frame's worth of latency for the others. */
const SEND_EVERY_MS = 25;
const LOCAL = Symbol('local');
const REMOTE = Symbol('remote');

type Element = ExcalidrawElement;
/** Documents of the pages seen in this room, kept while the tab stays in it (a reconnect keeps them). */
const docs = new Map<string, Y.Doc>();
let docsRoom = '';

function docOf(roomId: string, page: number): Y.Doc {
  if (docsRoom !== roomId) {
    for (const doc of docs.values()) doc.destroy();
    docs.clear();
    docsRoom = roomId;
  }
  let doc = docs.get(`${page}`);
  if (!doc) {
    doc = new Y.Doc();
    docs.set(`${page}`, doc);
  }
  return doc;
}

// Updates for pages this tab holds go into their documents, whichever page is on screen.
onWhiteboardUpdate((page, update) => {
  const doc = docs.get(`${page}`);
  if (doc) Y.applyUpdate(doc, update, REMOTE);
});

const clockOf = (doc: Y.Doc) => Y.decodeStateVector(Y.encodeStateVector(doc)).get(doc.clientID) ?? 0;

/** This tab's changes the server has not acknowledged: everything of ours past `sentClock`, and every deletion. */
function unsent(doc: Y.Doc, sentClock: number): Uint8Array {
  const vector = Y.decodeStateVector(Y.encodeStateVector(doc));
  vector.set(doc.clientID, sentClock);
  return Y.encodeStateAsUpdate(doc, Y.encodeStateVector(vector));
}

interface PageBinding {
  stop(): void;
}

/** Keeps Excalidraw's scene and page `page`'s document in step until stopped. */
export function bindPage(
  api: ExcalidrawImperativeAPI,
  roomId: string,
  page: number,
  canDraw: () => boolean,
  onLoaded: (loaded: boolean) => void,
): PageBinding {
  const doc = docOf(roomId, page);
  const elements = doc.getMap<Element>('elements');
  let stopped = false;
  let frame = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let sentClock = 0;

  const toScene = (replace: boolean) => {
    frame = 0;
    if (stopped) return;
    const remote = [...elements.values()] as OrderedExcalidrawElement[];
    const local = replace ? [] : (api.getSceneElementsIncludingDeleted() as OrderedExcalidrawElement[]);
    const merged = reconcileElements(local, remote as never, api.getAppState());
    api.updateScene({ elements: merged, captureUpdate: CaptureUpdateAction.NEVER });
  };
  // Not on the next animation frame: on a busy machine frames come late, and the scene (which paints
  // on its own frame) should hold the stroke as soon as it arrives. Updates of one task are merged.
  const schedule = () => {
    if (!frame) frame = window.setTimeout(() => toScene(false), 0);
  };
  const observer = (_event: Y.YMapEvent<Element>, transaction: Y.Transaction) => {
    if (transaction.origin !== LOCAL) schedule();
  };
  elements.observe(observer);

  // Changes go out at once, at most one batch every SEND_EVERY_MS, without waiting for the previous
  // batch's acknowledgement (the socket keeps them in order). A batch that could not go (no socket) is
  // part of the next; one lost with the connection is sent again when the page is fetched after the
  // reconnect (below), against what the server then holds.
  let lastSent = 0;
  function flush() {
    timer = undefined;
    if (stopped) return;
    const clock = clockOf(doc);
    if (clock === sentClock) return;
    const update = unsent(doc, sentClock);
    if (!sendUpdate(page, update)) return;
    sentClock = clock;
    lastSent = performance.now();
  }
  const onDocUpdate = (_update: Uint8Array, origin: unknown) => {
    if (origin !== LOCAL || timer) return;
    timer = setTimeout(flush, Math.max(0, SEND_EVERY_MS - (performance.now() - lastSent)));
  };
  doc.on('update', onDocUpdate);

  const stopChanges = api.onChange((sceneElements) => {
    if (stopped || !canDraw()) return;
    const changed = sceneElements.filter((element) => (elements.get(element.id)?.version ?? -1) < element.version);
    if (!changed.length) return;
    doc.transact(() => {
      for (const element of changed) elements.set(element.id, { ...element });
    }, LOCAL);
  });

  // What this tab holds already is shown at once; the server's copy follows.
  toScene(true);
  api.history.clear();
  onLoaded(false);
  fetchPage(page)
    .then((update) => {
      if (stopped) return;
      Y.applyUpdate(doc, update, REMOTE);
      toScene(false);
      onLoaded(true);
      // Someone who only watches sees the whole page, however narrow the screen (a phone at 390 px).
      if (!canDraw() && elements.size) api.scrollToContent(undefined, { fitToViewport: true, viewportZoomFactor: 0.9 });
      // Drawn here but not on the server (offline, or refused before access was given): send it now.
      const serverVector = Y.encodeStateVectorFromUpdate(update);
      const missing = Y.encodeStateAsUpdate(doc, serverVector);
      sentClock = Y.decodeStateVector(serverVector).get(doc.clientID) ?? 0;
      if (canDraw() && sentClock !== clockOf(doc) && sendUpdate(page, missing)) sentClock = clockOf(doc);
    })
    .catch(() => onLoaded(true));

  return {
    stop() {
      stopped = true;
      clearTimeout(frame);
      clearTimeout(timer);
      // What is still waiting goes now (a page change right after a stroke).
      if (canDraw() && clockOf(doc) !== sentClock) sendUpdate(page, unsent(doc, sentClock));
      elements.unobserve(observer);
      doc.off('update', onDocUpdate);
      stopChanges();
    },
  };
}


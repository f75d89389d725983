// What a meeting test reads from inside its pages: every RTCPeerConnection and WebSocket the page made
// (window.__pcs, window.__ws) and the text of every meeting toast shown (window.__toasts), installed
// before the app's own scripts run.
import type { BrowserContext, Page } from '@playwright/test';

interface Probe {
  __pcs: RTCPeerConnection[];
  __ws: WebSocket[];
  __toasts: string[];
}

/** The probe, keeping the text of every element `toasts` matches (meeting toasts by default). */
export async function installMeetingProbe(context: BrowserContext, toasts = '[data-testid="meeting-toast"]'): Promise<void> {
  await context.addInitScript((toasts) => {
    const w = window as unknown as Probe;
    w.__pcs = [];
    w.__ws = [];
    w.__toasts = [];
    const NativeWs = window.WebSocket;
    window.WebSocket = class extends NativeWs {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, protocols);
        w.__ws.push(this);
      }
    };
    const NativePc = window.RTCPeerConnection;
    const WrappedPc = function (this: unknown, config?: RTCConfiguration) {
      const pc = new NativePc(config);
      w.__pcs.push(pc);
      return pc;
    } as unknown as typeof RTCPeerConnection;
    WrappedPc.prototype = NativePc.prototype;
    Object.assign(WrappedPc, { generateCertificate: NativePc.generateCertificate });
    window.RTCPeerConnection = WrappedPc;
    new MutationObserver(() => {
      for (const element of document.querySelectorAll<HTMLElement>(toasts)) {
        if (element.dataset.seen) continue;
        element.dataset.seen = '1';
        w.__toasts.push(element.textContent ?? '');
      }
    }).observe(document, { childList: true, subtree: true });
  }, toasts);
}

/** The toasts the page has shown so far. */
export const toastsShown = (page: Page): Promise<string[]> => page.evaluate(() => (window as unknown as Probe).__toasts);

/** The page's connected peer connections, and the video frames each has decoded so far. */
export function connectedFrames(page: Page): Promise<number[]> {
  return page.evaluate(async () => {
    const pcs = (window as unknown as Probe).__pcs.filter((pc) => pc.connectionState === 'connected');
    return Promise.all(
      pcs.map(async (pc) => {
        let frames = 0;
        (await pc.getStats()).forEach((report) => {
          if (report.type === 'inbound-rtp' && report.kind === 'video') frames += report.framesDecoded ?? 0;
        });
        return frames;
      }),
    );
  });
}

/** Frames decoded so far per incoming video stream (by track), over all the page's connections. */
export function framesByTrack(page: Page): Promise<Record<string, number>> {
  return page.evaluate(async () => {
    const frames: Record<string, number> = {};
    for (const pc of (window as unknown as Probe).__pcs) {
      if (pc.connectionState !== 'connected') continue;
      (await pc.getStats()).forEach((report) => {
        if (report.type === 'inbound-rtp' && report.kind === 'video') frames[report.trackIdentifier ?? report.id] = report.framesDecoded ?? 0;
      });
    }
    return frames;
  });
}

/** Cuts the page's network: offline for new connections, and its open websockets dropped. */
export async function cutNetwork(context: BrowserContext, page: Page): Promise<void> {
  await context.setOffline(true);
  await page.evaluate(() => (window as unknown as Probe).__ws.forEach((ws) => ws.readyState <= WebSocket.OPEN && ws.close()));
}

/**
 * Each of the page's peer connections as a line for a failure's log: its states, and per transceiver
 * what it sends and receives, whether the received track is muted (no packets yet), and frames decoded.
 */
export function describeConnections(page: Page): Promise<string[]> {
  return page.evaluate(async () =>
    Promise.all(
      (window as unknown as Probe).__pcs.map(async (pc, index) => {
        const frames = new Map<string, number>();
        (await pc.getStats()).forEach((report) => {
          if (report.type === 'inbound-rtp') frames.set(report.trackIdentifier, report.framesDecoded ?? report.packetsReceived ?? 0);
        });
        const transceivers = pc.getTransceivers().map((t) => {
          const received = t.receiver.track;
          return `${t.mid ?? '-'}:${received.kind} ${t.direction}/${t.currentDirection ?? '-'} send=${t.sender.track?.readyState ?? 'none'} recv=${received.muted ? 'muted' : 'live'},${frames.get(received.id) ?? 0}`;
        });
        return `pc${index} ${pc.connectionState}/${pc.signalingState} ${transceivers.join(' | ')}`;
      }),
    ),
  );
}

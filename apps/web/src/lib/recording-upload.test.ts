import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createElement, type ReactNode } from 'react';
import { act, renderHook } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { looksLikeWebm, readsLikeWebm, startsLikeWebm, uploadFileName, uploadReducer, useRecordingUpload, type UploadState } from './recording-upload';

// A recording as Chromium's MediaRecorder writes it (the server's tests use it too).
const recorded = new Uint8Array(readFileSync(resolve(import.meta.dirname, '../../../server/test/fixtures/mediarecorder-3s.webm')));

describe('the uploaded file', () => {
  it('is named {roomId}-{userId}.webm, as the spec says', () => {
    expect(uploadFileName('room-1', 42)).toBe('room-1-42.webm');
    expect(uploadFileName('room-1', undefined)).toBe('room-1.webm');
  });

  it('is taken for WebM by its type, or by its name when the browser gives no type', () => {
    expect(looksLikeWebm({ name: 'class.webm', type: 'video/webm' })).toBe(true);
    expect(looksLikeWebm({ name: 'class.WEBM', type: '' })).toBe(true);
    expect(looksLikeWebm({ name: 'class.mp4', type: 'video/mp4' })).toBe(false);
    expect(looksLikeWebm({ name: 'class.webm', type: 'video/mp4' })).toBe(false);
  });
});

describe('the first bytes of a file', () => {
  it('are judged as the server does: a WebM’s EBML header, not zeros or another EBML kind', async () => {
    expect(startsLikeWebm(recorded)).toBe(true);
    expect(await readsLikeWebm(new Blob([recorded]))).toBe(true);
    expect(await readsLikeWebm(new Blob([new Uint8Array(256 * 1024)]))).toBe(false);
    expect(startsLikeWebm(new Uint8Array([0x1a, 0x45, 0xdf, 0xa3]))).toBe(false);
    // A Matroska file is EBML too, but its DocType says so.
    const matroska = Uint8Array.from([0x1a, 0x45, 0xdf, 0xa3, 0x8b, 0x42, 0x82, 0x88, ...new TextEncoder().encode('matroska')]);
    expect(startsLikeWebm(matroska)).toBe(false);
    const webm = Uint8Array.from([0x1a, 0x45, 0xdf, 0xa3, 0x87, 0x42, 0x82, 0x84, ...new TextEncoder().encode('webm')]);
    expect(startsLikeWebm(webm)).toBe(true);
  });
});

describe('uploading a file that is not a WebM', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('fails before anything is sent, with the server’s message', async () => {
    const sent: string[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      sent.push(url);
      return new Response('{}');
    });
    vi.stubGlobal(
      'XMLHttpRequest',
      class {
        upload = {};
        open(_method: string, url: string) {
          sent.push(url);
        }
        setRequestHeader() {}
        send() {}
        abort() {}
      },
    );
    const wrapper = ({ children }: { children: ReactNode }) => createElement(QueryClientProvider, { client: new QueryClient() }, children);
    const { result } = renderHook(() => useRecordingUpload('room-1'), { wrapper });
    const zeros = new File([new Uint8Array(256 * 1024)], 'class.webm', { type: 'video/webm' });
    await act(() => result.current.upload(zeros));
    expect(result.current.state).toEqual({ status: 'uploadError', message: 'The recording must be a WebM video' });
    expect(sent).toEqual([]);
  });
});

describe('upload states', () => {
  const uploading = uploadReducer({ status: 'idle' }, { type: 'start', total: 1000 });

  it('goes uploading → uploadSuccess, its bytes sent following the progress', () => {
    expect(uploading).toEqual({ status: 'uploading', sent: 0, total: 1000 });
    const half = uploadReducer(uploading, { type: 'progress', fraction: 0.5 });
    expect(half).toEqual({ status: 'uploading', sent: 500, total: 1000 });
    expect(uploadReducer(half, { type: 'done', recording: null })).toEqual({ status: 'uploadSuccess', total: 1000, recording: null });
  });

  it('goes uploading → uploadError with the message to show', () => {
    expect(uploadReducer(uploading, { type: 'failed', message: 'Too large' })).toEqual({ status: 'uploadError', message: 'Too large' });
  });

  it('never moves the bar backwards or past the end', () => {
    const most = uploadReducer(uploading, { type: 'progress', fraction: 0.8 });
    expect(uploadReducer(most, { type: 'progress', fraction: 0.3 })).toEqual(most);
    expect(uploadReducer(most, { type: 'progress', fraction: 1.2 })).toEqual({ status: 'uploading', sent: 1000, total: 1000 });
  });

  it('ignores what a cancelled upload reports late', () => {
    const cancelled: UploadState = uploadReducer(uploading, { type: 'reset' });
    expect(cancelled).toEqual({ status: 'idle' });
    expect(uploadReducer(cancelled, { type: 'progress', fraction: 0.9 })).toEqual(cancelled);
    expect(uploadReducer(cancelled, { type: 'done', recording: null })).toEqual(cancelled);
    expect(uploadReducer(cancelled, { type: 'failed', message: 'x' })).toEqual(cancelled);
  });
});

import { describe, expect, it } from 'vitest';
import { looksLikeWebm, uploadFileName, uploadReducer, type UploadState } from './recording-upload';

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

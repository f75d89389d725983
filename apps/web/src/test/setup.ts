import '@testing-library/jest-dom/vitest';
import { afterAll, afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';

// findBy and waitFor wait up to 5 s, not 1: on two cores busy with the server tests, a screen that
// signs someone in and routes them on took over a second, and failed a run that a retry passed.
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => {
  cleanup();
  localStorage.clear();
});

// A Mantine transition still running when a file ends sets state from its timer after jsdom is gone
// ("window is not defined", an unhandled error that fails the run): let it finish first.
afterAll(() => new Promise((resolve) => setTimeout(resolve, 400)));

// jsdom lacks these; Mantine components query them on mount.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

if (!('ResizeObserver' in window)) {
  class ResizeObserverStub {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  Object.assign(window, { ResizeObserver: ResizeObserverStub });
}

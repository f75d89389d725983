// Whether an element has come onto the screen (or within a margin of it), once and for good: what is
// drawn below the fold (a dashboard's chart, whose library is most of the dashboard's weight) is fetched
// and drawn as the reader scrolls to it, not with the first screen. Without IntersectionObserver it is
// on screen at once.
import { useEffect, useRef, useState, type RefObject } from 'react';

/** The element to watch, and whether it has come within `margin` of the screen. */
export function useNearScreen<T extends Element>(margin = '0px'): [RefObject<T | null>, boolean] {
  const ref = useRef<T>(null);
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const element = ref.current;
    if (near || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        setNear(true);
        observer.disconnect();
      },
      { rootMargin: margin },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [near, margin]);
  return [ref, near];
}

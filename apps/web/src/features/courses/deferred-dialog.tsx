// A dialog whose code loads when it is first shown (or earlier, through its loader), then stays mounted
// so it can animate its closing: the enrolment and checkout dialogs are not part of the catalogue's or
// the course page's chunk.
import { lazy, Suspense, useState, type ComponentType } from 'react';

export function deferredDialog<Props extends object>(
  load: () => Promise<ComponentType<Props>>,
  /** What the dialog shows; null (or undefined) while it is closed. */
  shown: (props: Props) => unknown,
) {
  const Deferred = lazy(async () => ({ default: await load() }));
  return function LazyDialog(props: Props) {
    const [used, setUsed] = useState(false);
    const showing = shown(props) != null;
    if (showing && !used) setUsed(true);
    if (!used && !showing) return null;
    return (
      <Suspense fallback={null}>
        <Deferred {...props} />
      </Suspense>
    );
  };
}

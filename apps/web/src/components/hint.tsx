// A hint for the pointer: a label beside an element while a mouse is over it, as Mantine's hover Tooltip
// drew it, but drawn here. The element itself is never replaced: a Tooltip loaded on the first hover had
// to wrap it anew, which remounted it, and a click at that moment could be lost. And no floating-layer
// library comes with every screen. Like the hover tooltip it stands for, it is the pointer's extra:
// keyboards and screen readers get the element's own name.
import { cloneElement, useState, type PointerEvent, type ReactElement, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import classes from './hint.module.css';

type HintPosition = 'top' | 'bottom' | 'left' | 'right';

type Target = ReactElement<{
  onPointerEnter?: (event: PointerEvent<HTMLElement>) => void;
  onPointerLeave?: (event: PointerEvent<HTMLElement>) => void;
}>;

/** Space between the element and its label, in pixels. */
const gap = 8;

/** The point the label is anchored at: the middle of the element's side it sits on. */
function anchorOf(box: DOMRect, position: HintPosition) {
  switch (position) {
    case 'right':
      return { left: box.right + gap, top: box.top + box.height / 2 };
    case 'left':
      return { left: box.left - gap, top: box.top + box.height / 2 };
    case 'bottom':
      return { left: box.left + box.width / 2, top: box.bottom + gap };
    case 'top':
      return { left: box.left + box.width / 2, top: box.top - gap };
  }
}

export function Hint({ children, label, position = 'top' }: { children: Target; label: ReactNode; position?: HintPosition }) {
  const [anchor, setAnchor] = useState<{ left: number; top: number } | null>(null);
  const target = cloneElement(children, {
    onPointerEnter: (event: PointerEvent<HTMLElement>) => {
      children.props.onPointerEnter?.(event);
      // A finger gets no hover label, as with Mantine's own.
      if (event.pointerType === 'touch') return;
      setAnchor(anchorOf(event.currentTarget.getBoundingClientRect(), position));
    },
    onPointerLeave: (event: PointerEvent<HTMLElement>) => {
      children.props.onPointerLeave?.(event);
      setAnchor(null);
    },
  });
  return (
    <>
      {target}
      {anchor &&
        createPortal(
          <div role="tooltip" className={classes.hint} data-position={position} style={anchor}>
            {label}
          </div>,
          document.body,
        )}
    </>
  );
}

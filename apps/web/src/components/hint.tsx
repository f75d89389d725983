// A hint for the pointer: Mantine's Tooltip, shown on hover as the app's tooltips are, but whose code
// (Tooltip and its floating layer, about 20 KB) is fetched when a pointer first reaches the element
// instead of coming with every signed-in screen. Until then the element is drawn alone. Like the hover
// tooltip it stands for, it is the pointer's extra: keyboards and screen readers get the element's name.
import { cloneElement, lazy, Suspense, useRef, useState, type PointerEvent, type ReactElement } from 'react';
import type { TooltipProps } from '@mantine/core';

const loadTooltip = () => import('./hint-tooltip');
const Tooltip = lazy(async () => ({ default: (await loadTooltip()).Tooltip }));

type Target = ReactElement<{
  onPointerEnter?: (event: PointerEvent<HTMLElement>) => void;
  onPointerLeave?: (event: PointerEvent<HTMLElement>) => void;
}>;

export function Hint({ children, ...tooltip }: Omit<TooltipProps, 'children'> & { children: Target }) {
  const [wanted, setWanted] = useState(false);
  // Whether the pointer is still on the element when the code arrives: the tooltip then opens at once.
  const pointerOn = useRef(false);
  if (!wanted) {
    return cloneElement(children, {
      onPointerEnter: (event: PointerEvent<HTMLElement>) => {
        children.props.onPointerEnter?.(event);
        // A finger gets no hover tooltip, as with Mantine's own.
        if (event.pointerType === 'touch') return;
        pointerOn.current = true;
        void loadTooltip().then(() => setWanted(true));
      },
      onPointerLeave: (event: PointerEvent<HTMLElement>) => {
        children.props.onPointerLeave?.(event);
        pointerOn.current = false;
      },
    });
  }
  return (
    <Suspense fallback={children}>
      <Tooltip withArrow {...tooltip} defaultOpened={pointerOn.current}>
        {children}
      </Tooltip>
    </Suspense>
  );
}

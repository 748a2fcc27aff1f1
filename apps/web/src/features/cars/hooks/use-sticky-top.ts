// A sticky side panel that is never cut off: while it fits the window it sticks below the header;
// when it is taller, its top offset goes negative by the difference, so the page scrolls it up
// until its bottom (Book Now) is in view and it sticks there. Everything in it is reached by the
// page's own scroll: no scroll area inside the panel.
import { useEffect, useState } from 'react';

/** The `top` (px) for a sticky element `headerOffset` below the top, `bottomGap` above the bottom when too tall. */
export function stickyTop(panelHeight: number, windowHeight: number, headerOffset: number, bottomGap: number): number {
  return Math.min(headerOffset, windowHeight - panelHeight - bottomGap);
}

/** A callback ref for the sticky element (it may mount after the page has loaded) and its `top`. */
export function useStickyTop<T extends HTMLElement>(headerOffset: number, bottomGap = 16) {
  const [element, ref] = useState<T | null>(null);
  const [top, setTop] = useState(headerOffset);
  useEffect(() => {
    if (!element) return;
    const measure = () => setTop(stickyTop(element.offsetHeight, window.innerHeight, headerOffset, bottomGap));
    measure();
    window.addEventListener('resize', measure);
    // The panel grows and shrinks with its content (hourly mode, a price, an alert).
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    observer?.observe(element);
    return () => {
      window.removeEventListener('resize', measure);
      observer?.disconnect();
    };
  }, [element, headerOffset, bottomGap]);
  return { ref, top };
}

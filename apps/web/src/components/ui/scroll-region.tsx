// A wide table's sideways scroller. While its content is wider than the screen it is a named
// region a keyboard can reach (Tab, then the arrow keys scroll it): otherwise a table of text
// with no link or button is out of reach on a phone (WCAG 2.1.1; axe's
// scrollable-region-focusable). While everything fits it is a plain box and no tab stop.
import { clsx } from 'clsx';
import { useEffect, useRef, useState, type ReactNode } from 'react';

export interface ScrollRegionProps {
  /** What a screen reader calls the region ("Audit log entries"). */
  label: string;
  className?: string;
  children: ReactNode;
}

export function ScrollRegion({ label, className, children }: ScrollRegionProps) {
  const ref = useRef<HTMLDivElement>(null);
  const [isScrollable, setScrollable] = useState(false);

  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setScrollable(element.scrollWidth > element.clientWidth + 1);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    // The box and the table inside it both change size (window, data), so both are watched.
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => observer.disconnect();
  }, []);

  return (
    <div
      ref={ref}
      role={isScrollable ? 'region' : undefined}
      aria-label={isScrollable ? label : undefined}
      tabIndex={isScrollable ? 0 : undefined}
      className={clsx('overflow-x-auto focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-inset', className)}
    >
      {children}
    </div>
  );
}

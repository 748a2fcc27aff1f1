// Closes a popover (menu, dropdown) on a click outside it or on Escape.
import { useEffect, useRef, type RefObject } from 'react';

export type DismissReason = 'outside' | 'escape';

export function useDismiss(open: boolean, ref: RefObject<HTMLElement | null>, onClose: (reason: DismissReason) => void) {
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  });

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: MouseEvent | TouchEvent) => {
      if (ref.current && !ref.current.contains(event.target as Node)) onCloseRef.current('outside');
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onCloseRef.current('escape');
    };
    document.addEventListener('mousedown', onPointer);
    document.addEventListener('touchstart', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onPointer);
      document.removeEventListener('touchstart', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open, ref]);
}

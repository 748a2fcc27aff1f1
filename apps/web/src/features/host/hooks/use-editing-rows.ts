// Which rows of the OptionsEditor (pickup locations, insurance plans) are open for editing:
// a row added after `openWhenAppended` opens with the cursor in it; rows that fail validation open
// so their messages show; saving closes them all.
import { useEffect, useRef, useState } from 'react';

export function useEditingRows(fields: { key: string }[], focusRow: (index: number) => void) {
  const [editing, setEditing] = useState<Set<string>>(() => new Set());
  const openNextAppended = useRef(false);

  useEffect(() => {
    if (!openNextAppended.current) return;
    openNextAppended.current = false;
    const index = fields.length - 1;
    const last = fields[index];
    if (!last) return;
    setEditing((current) => new Set([...current, last.key]));
    requestAnimationFrame(() => focusRow(index));
  }, [fields, focusRow]);

  return {
    isOpen: (key: string) => editing.has(key),
    setOpen: (key: string, open: boolean) =>
      setEditing((current) => {
        const next = new Set(current);
        if (open) next.add(key);
        else next.delete(key);
        return next;
      }),
    openRows: (keys: string[]) => setEditing((current) => new Set([...current, ...keys])),
    closeAll: () => setEditing(new Set()),
    /** Call right before appending a row: it opens once it exists. */
    openWhenAppended: () => {
      openNextAppended.current = true;
    },
  };
}

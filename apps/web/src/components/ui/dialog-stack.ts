// The open dialogs, innermost last: only the top one answers Escape, traps Tab and holds the
// toasts (dialog.tsx). Apart from the dialog itself, so that the toasts, which every page has, read
// where to stand without loading the dialog's code on pages that open none (the landing page's budget).
import { useSyncExternalStore } from 'react';

export const openDialogs: { id: symbol; toastSlot: HTMLElement | null }[] = [];
const stackListeners = new Set<() => void>();
export const stackChanged = () => stackListeners.forEach((listener) => listener());
const subscribeToStack = (listener: () => void) => {
  stackListeners.add(listener);
  return () => stackListeners.delete(listener);
};
const topToastSlot = () => openDialogs[openDialogs.length - 1]?.toastSlot ?? null;

/** Where toasts go now: the top open dialog's slot above its panel, or null (their usual corner). */
export function useDialogToastSlot(): HTMLElement | null {
  return useSyncExternalStore(subscribeToStack, topToastSlot, () => null);
}

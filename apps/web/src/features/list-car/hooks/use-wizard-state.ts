// The wizard's state, kept in sessionStorage so nothing typed is lost when a visitor is sent to
// sign in before submitting, or reloads the page. Photos (data URLs, possibly megabytes) are kept
// under their own key and written only when they change; if the browser's quota refuses them the
// rest is still kept and the wizard asks for the photos again.
import type { Car } from '@karoo/shared';
import { useCallback, useEffect, useState } from 'react';
import { emptyDraft, type WizardDraft, type WizardPhoto, type WizardStep } from '../utils/wizard-draft';

export const WIZARD_STORAGE_KEY = 'karoo.listCar';
export const WIZARD_PHOTOS_KEY = 'karoo.listCar.photos';
/** Set when the photos did not fit in sessionStorage. */
const PHOTOS_LOST_KEY = 'karoo.listCar.photosLost';

export interface WizardState {
  step: WizardStep;
  draft: WizardDraft;
  /** The car created on step 2, for the documents step. */
  createdCar: Car | null;
}

interface StoredWizard {
  version: 1;
  step: WizardStep;
  draft: Omit<WizardDraft, 'photos'>;
  createdCar: Car | null;
}

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    return null;
  }
}

export interface LoadedWizard {
  state: WizardState;
  restored: boolean;
  photosLost: boolean;
}

export function loadWizardState(now: Date = new Date()): LoadedWizard {
  const fresh: WizardState = { step: 1, draft: emptyDraft(now), createdCar: null };
  const store = storage();
  const raw = store?.getItem(WIZARD_STORAGE_KEY);
  if (!raw) return { state: fresh, restored: false, photosLost: false };
  try {
    const stored = JSON.parse(raw) as StoredWizard;
    if (stored.version !== 1 || !stored.draft) throw new Error('Unknown wizard draft');
    const photosRaw = store?.getItem(WIZARD_PHOTOS_KEY);
    const photos = photosRaw ? (JSON.parse(photosRaw) as WizardPhoto[]) : [];
    const step: WizardStep = stored.step === 3 && stored.createdCar ? 3 : stored.step === 2 ? 2 : 1;
    return {
      state: { step, draft: { ...fresh.draft, ...stored.draft, photos: Array.isArray(photos) ? photos : [] }, createdCar: stored.createdCar ?? null },
      restored: true,
      photosLost: store?.getItem(PHOTOS_LOST_KEY) === '1' && photos.length === 0,
    };
  } catch {
    clearWizardState();
    return { state: fresh, restored: false, photosLost: false };
  }
}

export function clearWizardState(): void {
  const store = storage();
  store?.removeItem(WIZARD_STORAGE_KEY);
  store?.removeItem(WIZARD_PHOTOS_KEY);
  store?.removeItem(PHOTOS_LOST_KEY);
}

/** Whether the draft holds anything the visitor typed or chose. */
export function hasDraftContent(draft: WizardDraft): boolean {
  const blank = emptyDraft();
  return (Object.keys(blank) as (keyof WizardDraft)[]).some((key) => {
    if (key === 'car_year') return false;
    return JSON.stringify(draft[key]) !== JSON.stringify(blank[key]);
  });
}

export function useWizardState() {
  const [loaded] = useState(() => loadWizardState());
  const [state, setState] = useState<WizardState>(loaded.state);

  const { step, draft, createdCar } = state;
  const { photos, ...rest } = draft;
  const restJson = JSON.stringify(rest);

  useEffect(() => {
    const stored: StoredWizard = { version: 1, step, draft: JSON.parse(restJson) as StoredWizard['draft'], createdCar };
    try {
      storage()?.setItem(WIZARD_STORAGE_KEY, JSON.stringify(stored));
    } catch {
      // Storage full or disabled: the wizard still works, it just cannot survive a reload.
    }
  }, [step, createdCar, restJson]);

  useEffect(() => {
    const store = storage();
    if (!store) return;
    try {
      if (photos.length) store.setItem(WIZARD_PHOTOS_KEY, JSON.stringify(photos));
      else store.removeItem(WIZARD_PHOTOS_KEY);
      store.removeItem(PHOTOS_LOST_KEY);
    } catch {
      store.removeItem(WIZARD_PHOTOS_KEY);
      try {
        store.setItem(PHOTOS_LOST_KEY, '1');
      } catch {
        // Nothing more can be kept.
      }
    }
  }, [photos]);

  const reset = useCallback(() => {
    clearWizardState();
    setState({ step: 1, draft: emptyDraft(), createdCar: null });
  }, []);

  return {
    state,
    setState,
    /** The page opened with details kept from an earlier visit. */
    restored: loaded.restored && loaded.state.step < 3 && hasDraftContent(loaded.state.draft),
    /** ...but the photos were too large to keep. */
    photosLost: loaded.photosLost,
    reset,
  };
}

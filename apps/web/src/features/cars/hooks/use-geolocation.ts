// The renter's position from the browser (navigator.geolocation), for "use my location" and the
// DISTANCE sort. Failure shows document 2's alert text.
import { useCallback, useState } from 'react';

export const GEOLOCATION_ERROR = 'Unable to get your current location. Please enter manually.';

export interface Position {
  lat: number;
  lng: number;
}

export function useGeolocation() {
  const [isLocating, setIsLocating] = useState(false);
  const locate = useCallback(
    () =>
      new Promise<Position | null>((resolve) => {
        if (!('geolocation' in navigator) || !navigator.geolocation) {
          window.alert(GEOLOCATION_ERROR);
          resolve(null);
          return;
        }
        setIsLocating(true);
        navigator.geolocation.getCurrentPosition(
          (position) => {
            setIsLocating(false);
            resolve({ lat: position.coords.latitude, lng: position.coords.longitude });
          },
          () => {
            setIsLocating(false);
            window.alert(GEOLOCATION_ERROR);
            resolve(null);
          },
          { enableHighAccuracy: false, timeout: 10_000, maximumAge: 5 * 60_000 },
        );
      }),
    [],
  );
  return { locate, isLocating };
}

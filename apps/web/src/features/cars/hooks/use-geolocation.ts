// The renter's position from the browser (navigator.geolocation), for "use my location", the map's
// locate button and the DISTANCE sort. A refusal or a failure is said on the page by the caller
// (never a native alert, which blocks the page and says nothing about what to do next).
import { useCallback, useState } from 'react';

export interface Position {
  lat: number;
  lng: number;
}

/** Why no position came: the person (or the browser's settings) said no, or it could not be found. */
export type GeolocationFailure = 'denied' | 'unavailable';

export const GEOLOCATION_MESSAGES: Record<GeolocationFailure, string> = {
  denied: 'Your browser did not share your location.',
  unavailable: 'Your location could not be found.',
};

export function useGeolocation() {
  const [isLocating, setIsLocating] = useState(false);
  const [failure, setFailure] = useState<GeolocationFailure | null>(null);
  const locate = useCallback(
    () =>
      new Promise<Position | null>((resolve) => {
        setFailure(null);
        if (!('geolocation' in navigator) || !navigator.geolocation) {
          setFailure('unavailable');
          resolve(null);
          return;
        }
        setIsLocating(true);
        navigator.geolocation.getCurrentPosition(
          (position) => {
            setIsLocating(false);
            resolve({ lat: position.coords.latitude, lng: position.coords.longitude });
          },
          (error) => {
            setIsLocating(false);
            // 1 is PERMISSION_DENIED (the constant is not on every error object a browser or a test makes).
            setFailure(error.code === 1 ? 'denied' : 'unavailable');
            resolve(null);
          },
          { enableHighAccuracy: false, timeout: 10_000, maximumAge: 5 * 60_000 },
        );
      }),
    [],
  );
  return { locate, isLocating, failure };
}

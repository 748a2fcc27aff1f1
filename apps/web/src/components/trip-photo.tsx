// A trip photo from private storage: fetched with the token (a plain <img src> cannot send it) and
// shown from a blob URL, released when the photo leaves the screen.
import type { TripPhoto as Photo } from '@karoo/shared';
import { PHOTO_SLOT_LABELS } from '@karoo/shared';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { fetchBlob } from '@/lib/api-files';

export function TripPhoto({ photo, className }: { photo: Photo; className?: string }) {
  const blob = useQuery({ queryKey: ['trips', 'photo', photo.id], queryFn: ({ signal }) => fetchBlob(photo.url, { signal }), staleTime: Infinity });
  const url = useMemo(() => (blob.data ? URL.createObjectURL(blob.data) : null), [blob.data]);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  const label = PHOTO_SLOT_LABELS[photo.slot];
  return (
    <figure className={className}>
      {url ? (
        <img src={url} alt={`${label} of the car`} className="aspect-[4/3] w-full rounded-lg bg-stone-100 object-cover" />
      ) : (
        <div className="aspect-[4/3] w-full animate-pulse rounded-lg bg-stone-100" role="img" aria-label={`${label} of the car (loading)`} />
      )}
      <figcaption className="mt-1 text-xs text-stone-600">{label}</figcaption>
    </figure>
  );
}

// The wizard's photos: image files only (JPEG, PNG or WebP by content, within the size limits),
// each checked the moment it is chosen and refused in the page by name (lib/file-checks.ts; the
// server checks again), at most 10 of 10 MB each, read as data URLs that carry the file's name,
// previewed, removable; the first is the main photo and any photo can be moved there.
import { MAX_CAR_PHOTO_BYTES, MAX_CAR_PHOTOS } from '@karoo/shared';
import { clsx } from 'clsx';
import { ImagePlus, Star, X } from 'lucide-react';
import { useId, useState, type DragEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { checkChosenFile, type FileRule } from '@/lib/file-checks';
import type { WizardPhoto } from '../utils/wizard-draft';

export const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'];
const PHOTO_RULE: FileRule = { types: PHOTO_TYPES, maxBytes: MAX_CAR_PHOTO_BYTES, noun: 'image' };

/**
 * The file as a data URL with its name as a `name` parameter (`data:image/jpeg;name=front.jpg;base64,...`),
 * so that a refusal from the server can say which file it means.
 */
function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/;base64,/, `;name=${encodeURIComponent(file.name)};base64,`));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsDataURL(file);
  });
}

export interface PhotoPickerProps {
  photos: WizardPhoto[];
  onChange: (photos: WizardPhoto[]) => void;
}

export function PhotoPicker({ photos, onChange }: PhotoPickerProps) {
  const inputId = useId();
  const hintId = useId();
  const [dragging, setDragging] = useState(false);
  const [reading, setReading] = useState(false);
  /** Why each file of the last choice was not added, naming it. */
  const [refusals, setRefusals] = useState<string[]>([]);
  const remaining = MAX_CAR_PHOTOS - photos.length;

  const addFiles = async (files: File[]) => {
    if (files.length === 0) return;
    setReading(true);
    const refused: string[] = [];
    const added: WizardPhoto[] = [];
    try {
      // One at a time: each check may decode a large photo.
      for (const file of files) {
        if (added.length >= remaining) {
          refused.push(`"${file.name}" was not added: you can add at most ${MAX_CAR_PHOTOS} photos.`);
          continue;
        }
        const problem = await checkChosenFile(file, PHOTO_RULE);
        if (problem) refused.push(problem);
        else added.push({ name: file.name, dataUrl: await readAsDataUrl(file) });
      }
    } catch {
      refused.push('A photo could not be read. Please try another file.');
    } finally {
      setReading(false);
    }
    setRefusals(refused);
    if (added.length) onChange([...photos, ...added].slice(0, MAX_CAR_PHOTOS));
  };

  const onDrop = (event: DragEvent<HTMLLabelElement>) => {
    event.preventDefault();
    setDragging(false);
    void addFiles(Array.from(event.dataTransfer.files));
  };

  const makeMain = (index: number) => {
    const chosen = photos[index];
    if (!chosen) return;
    onChange([chosen, ...photos.filter((_, i) => i !== index)]);
  };

  return (
    <div>
      <div className="mb-1.5 flex items-baseline justify-between gap-2">
        <p className="text-sm font-medium text-stone-700">Photos</p>
        <p className="text-xs text-stone-500">
          {photos.length} of {MAX_CAR_PHOTOS}
        </p>
      </div>
      <ul className="grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-5" aria-label="Chosen photos">
        {photos.map((photo, index) => (
          <li key={`${photo.name}-${index}`} className="group relative aspect-[4/3] overflow-hidden rounded-xl bg-stone-100 ring-1 ring-stone-200">
            <img src={photo.dataUrl} alt={`Photo ${index + 1}: ${photo.name}`} className="size-full object-cover" />
            {index === 0 ? (
              <span className="absolute bottom-2 left-2 rounded-full bg-stone-900/80 px-2 py-0.5 text-[11px] font-semibold text-white">Main photo</span>
            ) : (
              <button
                type="button"
                onClick={() => makeMain(index)}
                className="absolute bottom-2 left-2 inline-flex items-center gap-1 rounded-full bg-white/90 px-2 py-0.5 text-[11px] font-semibold text-stone-800 shadow hover:bg-white focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
              >
                <Star className="size-3" aria-hidden="true" />
                <span>
                  Make main<span className="sr-only"> photo {index + 1}</span>
                </span>
              </button>
            )}
            <button
              type="button"
              onClick={() => onChange(photos.filter((_, i) => i !== index))}
              aria-label={`Remove photo ${index + 1}`}
              className="absolute top-2 right-2 rounded-full bg-white/90 p-1 text-stone-700 shadow hover:bg-white hover:text-red-600 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
            >
              <X className="size-4" aria-hidden="true" />
            </button>
          </li>
        ))}
        {remaining > 0 ? (
          <li className={clsx(photos.length === 0 && 'col-span-2 sm:col-span-4 lg:col-span-5')}>
            <label
              htmlFor={inputId}
              onDragOver={(event) => {
                event.preventDefault();
                setDragging(true);
              }}
              onDragLeave={() => setDragging(false)}
              onDrop={onDrop}
              className={clsx(
                'flex h-full cursor-pointer flex-col items-center justify-center gap-1 rounded-xl border-2 border-dashed px-3 py-6 text-center transition-colors',
                'focus-within:ring-2 focus-within:ring-brand-500 focus-within:ring-offset-2',
                photos.length ? 'aspect-[4/3]' : 'min-h-36',
                dragging ? 'border-brand-500 bg-brand-50' : 'border-stone-300 hover:border-brand-400 hover:bg-stone-50',
                reading && 'pointer-events-none opacity-60',
              )}
            >
              <ImagePlus className="size-6 text-brand-600" aria-hidden="true" />
              <span className="text-sm font-semibold text-stone-800">Add photos</span>
              <span id={hintId} className="text-xs text-stone-500">
                {photos.length ? `Up to ${remaining} more` : 'JPEG, PNG or WebP, up to 10 photos of 10MB. The first is the main photo.'}
              </span>
              <input
                id={inputId}
                type="file"
                accept={PHOTO_TYPES.join(',')}
                multiple
                className="sr-only"
                disabled={reading}
                aria-describedby={hintId}
                onChange={(event) => {
                  const files = Array.from(event.target.files ?? []);
                  event.target.value = '';
                  void addFiles(files);
                }}
              />
            </label>
          </li>
        ) : null}
      </ul>
      {refusals.length ? (
        <Alert tone="danger" role="alert" className="mt-3" title={refusals.length === 1 ? 'Photo not added' : `${refusals.length} photos not added`}>
          <ul className="space-y-1 break-words">
            {refusals.map((message, index) => (
              <li key={index}>{message}</li>
            ))}
          </ul>
        </Alert>
      ) : null}
    </div>
  );
}

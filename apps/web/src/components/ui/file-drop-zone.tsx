// A dashed drop area that is also a file input (click or drop one file), the refusal of the last
// file chosen, and the upload progress bar that goes with it. No business logic: callers check
// types and sizes, word the refusal and do the upload.
import { clsx } from 'clsx';
import { UploadCloud } from 'lucide-react';
import { useState, type DragEvent } from 'react';

export function FileDropZone({
  inputId,
  accept,
  label,
  hint,
  extraHint,
  disabled,
  describedBy,
  testId,
  error,
  onFile,
}: {
  inputId: string;
  accept: string;
  label: string;
  hint: string;
  extraHint?: string;
  disabled?: boolean;
  describedBy?: string;
  testId?: string;
  /** Why the last file chosen was refused (naming it), shown under the area until the next choice. */
  error?: string | null;
  onFile: (file: File) => void;
}) {
  const [dragging, setDragging] = useState(false);
  const onDrop = (event: DragEvent<HTMLLabelElement>) => {
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer.files[0];
    if (file && !disabled) onFile(file);
  };
  return (
    <>
      <label
        htmlFor={inputId}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        className={clsx(
          'mt-3 flex cursor-pointer flex-col items-center justify-center gap-1 rounded-xl border-2 border-dashed px-4 py-5 text-center transition-colors',
          'focus-within:ring-2 focus-within:ring-brand-500 focus-within:ring-offset-2',
          dragging ? 'border-brand-500 bg-brand-50' : 'border-stone-300 hover:border-brand-400 hover:bg-stone-50',
          disabled && 'pointer-events-none opacity-60',
        )}
      >
        <UploadCloud className="size-6 text-brand-600" aria-hidden="true" />
        <span className="text-sm font-semibold text-stone-800">{label}</span>
        <span className="text-xs text-stone-500">{hint}</span>
        {extraHint ? <span className="hidden text-xs text-stone-500 sm:inline">{extraHint}</span> : null}
        <input
          id={inputId}
          type="file"
          accept={accept}
          className="sr-only"
          disabled={disabled}
          aria-describedby={describedBy}
          data-testid={testId}
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = ''; // choosing the same file again must fire again
            if (file) onFile(file);
          }}
        />
      </label>
      {error ? (
        <p role="alert" className="mt-2 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm break-words text-red-900">
          {error}
        </p>
      ) : null}
    </>
  );
}

export function UploadProgress({ progress, label = 'Upload progress' }: { progress: number | null; label?: string }) {
  if (progress === null) return null;
  return (
    <div className="mt-3" aria-live="polite">
      <div role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={progress} className="h-2 overflow-hidden rounded-full bg-stone-200">
        <div className="h-full rounded-full bg-brand-600 transition-[width] duration-200" style={{ width: `${progress}%` }} />
      </div>
      <p className="mt-1 text-xs text-stone-500">{progress < 100 ? `Uploading... ${progress}%` : 'Upload complete'}</p>
    </div>
  );
}

// The sticky action bar shared by the pickup-location and insurance-plan editors.
import { Plus } from 'lucide-react';
import { Button } from '@/components/ui/button';

export function OptionsEditorFooter({
  addLabel,
  saveLabel,
  onAdd,
  isDirty,
  isSaving,
}: {
  addLabel: string;
  saveLabel: string;
  onAdd: () => void;
  isDirty: boolean;
  isSaving: boolean;
}) {
  return (
    <div className="sticky bottom-0 -mx-4 flex items-center justify-between gap-2 border-t border-stone-100 bg-white px-4 py-3 sm:-mx-6 sm:px-6">
      <Button variant="secondary" icon={<Plus className="size-4" aria-hidden="true" />} onClick={onAdd} aria-label={addLabel}>
        <span className="sm:hidden">Add</span>
        <span className="hidden sm:inline">{addLabel}</span>
      </Button>
      <div className="flex items-center gap-3">
        {isDirty ? <span className="hidden text-xs font-medium text-amber-700 sm:inline">Unsaved changes</span> : null}
        <Button type="submit" loading={isSaving} aria-label={saveLabel}>
          <span className="sm:hidden">Save</span>
          <span className="hidden sm:inline">{saveLabel}</span>
        </Button>
      </div>
    </div>
  );
}

// One editor for a car's option lists in Manage Details (pickup locations, insurance plans): the
// rows, Edit / Done, add, remove (asking first with document 2's confirmation dialog; a blank row
// just added goes without asking), and save the whole list with the server's reason on failure
// (docs/decisions/014). What a row holds, shows and validates is the list's `OptionFieldSet`
// (pickup-options-editor.tsx, insurance-options-editor.tsx); the rules come from the shared schema
// behind its resolver.
import type { Car } from '@karoo/shared';
import { clsx } from 'clsx';
import { Pencil, Plus, Trash2, type LucideIcon } from 'lucide-react';
import { useCallback, useId, useState, type ComponentType } from 'react';
import { useFieldArray, useForm, type Control, type FieldValues, type Resolver, type UseFormRegisterReturn } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { useNotification } from '@/components/ui/toast';
import { messageOf } from '@/lib/api-client';
import { useEditingRows } from '../hooks/use-editing-rows';

/** The car's option lists, by their key in the car, the request body and the form. */
export type OptionListKey = 'pickup_options' | 'insurance_options';

/** An option as the form holds it: saved ones keep their `id`; a new one has a `name` to fill in. */
interface FormOption {
  id?: string;
  name?: string;
}

/** What a row gives the inputs of its field set: each field of the option by name. */
export interface OptionRow<TOption> {
  /** Unique to this row of this editor, for the ids of inputs that label themselves. */
  id: string;
  control: Control<FieldValues>;
  /** A field's form path, for a `Controller`. */
  path: (field: keyof TOption & string) => string;
  register: (field: keyof TOption & string) => UseFormRegisterReturn;
  /** The field's validation message, once the row was checked. */
  error: (field: keyof TOption & string) => string | undefined;
}

/** One list's part of the editor. Define it once at module level: its components must keep their identity between renders. */
export interface OptionFieldSet<K extends OptionListKey, TOption extends FormOption> {
  listKey: K;
  /** The zod resolver of the list's request body (`{ [listKey]: TOption[] }`), a schema of @karoo/shared. */
  resolver: Resolver<Record<K, TOption[]>, unknown, unknown>;
  toFormOption: (saved: Car[K][number]) => TOption;
  newOption: () => TOption;
  /** A row added a moment ago and not filled in: removing it loses nothing, so no confirmation. */
  isBlank: (option: TOption) => boolean;
  /** The empty state's icon. */
  icon: LucideIcon;
  text: {
    intro: string;
    emptyTitle: string;
    emptyText: (car: Car) => string;
    /** A row's title while its name is empty. */
    untitled: string;
    /** The confirmation's subject when no row is named: `Remove ${removeFallback}?`. */
    removeFallback: string;
    add: string;
    save: string;
    savedTitle: string;
    savedText: (count: number) => string;
    /** Document 2's text when the server gives no reason. */
    failedText: string;
  };
  /** Beside the row's title. */
  Badges: ComponentType<{ option: TOption }>;
  /** Under the title while the row is closed. */
  Summary: ComponentType<{ option: TOption }>;
  /** The inputs of an open row (a two-column grid). */
  Fields: ComponentType<{ row: OptionRow<TOption> }>;
}

type RowErrors = Partial<Record<string, { message?: string }>>;

export interface OptionsEditorProps<K extends OptionListKey, TOption extends FormOption> {
  car: Car;
  fieldSet: OptionFieldSet<K, TOption>;
  /** Saves the whole list (as the schema parsed it) and answers with the updated car. */
  save: (options: TOption[]) => Promise<Car>;
  isSaving: boolean;
}

export function OptionsEditor<K extends OptionListKey, TOption extends FormOption>({ car, fieldSet, save, isSaving }: OptionsEditorProps<K, TOption>) {
  const { listKey, toFormOption, text, icon: EmptyIcon, Badges, Summary, Fields } = fieldSet;
  const toFormList = (saved: Car[K]) => (saved as Car[K][number][]).map(toFormOption);
  const notify = useNotification();
  const idPrefix = useId();
  // Inside, the form is typed loosely: its paths are built from `listKey`, which TypeScript cannot
  // follow through a generic. The field set's resolver and the row helpers below are typed.
  const form = useForm<FieldValues>({
    resolver: fieldSet.resolver as unknown as Resolver<FieldValues>,
    defaultValues: { [listKey]: toFormList(car[listKey]) },
  });
  const { control, register, handleSubmit, trigger, reset, watch, setFocus, formState } = form;
  // Options carry their own `id`, so the array's React keys live under `key`.
  const { fields, append, remove } = useFieldArray({ control, name: listKey as string, keyName: 'key' });
  const focusName = useCallback((index: number) => setFocus(`${listKey}.${index}.name`), [setFocus, listKey]);
  const { isOpen, setOpen, openRows, closeAll, openWhenAppended } = useEditingRows(fields, focusName);
  const values = watch(listKey) as TOption[];
  const errors = formState.errors[listKey] as RowErrors[] | undefined;
  // Removing an option asks first (document 2's confirmation dialog); a blank new row just goes.
  const [removing, setRemoving] = useState<{ key: string; title: string } | null>(null);
  const removeRow = (key: string) => {
    const index = fields.findIndex((field) => field.key === key);
    if (index >= 0) remove(index);
    setOpen(key, false);
  };
  const askToRemove = (key: string, title: string, blank: boolean) => (blank ? removeRow(key) : setRemoving({ key, title }));

  const onSubmit = handleSubmit(
    async (data) => {
      try {
        const updated = await save(data[listKey] as TOption[]);
        const saved = toFormList(updated[listKey]);
        reset({ [listKey]: saved });
        closeAll();
        notify.success(text.savedTitle, text.savedText(saved.length));
      } catch (error) {
        notify.error('Update Failed', messageOf(error, text.failedText));
      }
    },
    (invalid) => {
      // Open every option with a problem so its message shows.
      const invalidRows = invalid[listKey] as unknown[] | undefined;
      openRows(fields.filter((_, index) => invalidRows?.[index]).map((field) => field.key));
    },
  );

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className="flex flex-col gap-4">
      <p className="text-sm text-stone-600">{text.intro}</p>

      {fields.length === 0 ? (
        <div className="rounded-xl border border-dashed border-stone-300 px-4 py-8 text-center">
          <EmptyIcon className="mx-auto size-6 text-stone-400" aria-hidden="true" />
          <p className="mt-2 text-sm font-medium text-stone-700">{text.emptyTitle}</p>
          <p className="text-sm text-stone-500">{text.emptyText(car)}</p>
        </div>
      ) : (
        <ul className="space-y-3">
          {fields.map((field, index) => {
            const option = (values[index] ?? field) as TOption;
            const open = isOpen(field.key);
            const itemErrors = errors?.[index];
            const title = option.name?.trim() || text.untitled;
            const row: OptionRow<TOption> = {
              id: `${idPrefix}-${field.key}`,
              control,
              path: (name) => `${listKey}.${index}.${name}`,
              register: (name) => register(`${listKey}.${index}.${name}`),
              error: (name) => itemErrors?.[name]?.message,
            };
            return (
              <li key={field.key} className={clsx('rounded-xl border p-4', itemErrors ? 'border-red-300' : 'border-stone-200')}>
                <div className="flex items-start justify-between gap-3">
                  <div className="min-w-0">
                    <div className="flex flex-wrap items-center gap-2">
                      <p className="font-semibold text-stone-900">{title}</p>
                      <Badges option={option} />
                    </div>
                    {!open ? <Summary option={option} /> : null}
                  </div>
                  <div className="flex shrink-0 gap-1">
                    {!open ? (
                      <Button size="sm" variant="ghost" icon={<Pencil className="size-4" aria-hidden="true" />} onClick={() => setOpen(field.key, true)} aria-label={`Edit ${title}`}>
                        <span className="hidden sm:inline">Edit</span>
                      </Button>
                    ) : null}
                    <Button
                      size="sm"
                      variant="ghost"
                      className="text-red-600 hover:bg-red-50"
                      icon={<Trash2 className="size-4" aria-hidden="true" />}
                      onClick={() => askToRemove(field.key, title, fieldSet.isBlank(option))}
                      aria-label={`Remove ${title}`}
                    >
                      <span className="hidden sm:inline">Remove</span>
                    </Button>
                  </div>
                </div>

                {open ? (
                  <div className="mt-4 grid gap-4 sm:grid-cols-2">
                    <Fields row={row} />
                    <div className="flex justify-end sm:col-span-2">
                      <Button
                        size="sm"
                        variant="secondary"
                        onClick={() => {
                          void trigger(`${listKey}.${index}`).then((valid) => valid && setOpen(field.key, false));
                        }}
                      >
                        Done
                      </Button>
                    </div>
                  </div>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}

      <EditorFooter
        addLabel={text.add}
        saveLabel={text.save}
        onAdd={() => {
          openWhenAppended();
          append(fieldSet.newOption(), { shouldFocus: false });
        }}
        isDirty={formState.isDirty}
        isSaving={isSaving}
      />

      <ConfirmDialog
        open={removing !== null}
        tone="danger"
        title={`Remove ${removing?.title ?? text.removeFallback}?`}
        description="Renters will no longer be able to choose it once you save."
        confirmLabel="Remove"
        onConfirm={() => removing && removeRow(removing.key)}
        onClose={() => setRemoving(null)}
      />
    </form>
  );
}

/** The sticky action bar: add a row, and save with a note while there are unsaved changes. */
function EditorFooter({ addLabel, saveLabel, onAdd, isDirty, isSaving }: { addLabel: string; saveLabel: string; onAdd: () => void; isDirty: boolean; isSaving: boolean }) {
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

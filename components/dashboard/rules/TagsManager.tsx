/**
 * The organisation's tags (GET/POST v1/org/tags, PATCH/DELETE v1/org/tags/{id}): a name and a colour each, renamed or
 * recoloured in place; deleting one takes it off every review (asked first).
 */
import { useId, useState } from 'react';
import toast from '@/lib/hotToast';
import type { Tag } from '@/lib/api/workflow';
import { useCreateTag, useDeleteTag, useTags, useUpdateTag } from '@/lib/queries/workflow';
import { TAG_NAME_MAX } from '@/shared/workflow';
import { ConfirmButton, errorToast, Skeleton } from '../common';
import styles from '../Dashboard.module.css';
import own from './Rules.module.css';

const COLORS = ['#2563eb', '#dc2626', '#16a34a', '#d97706', '#7c3aed', '#db2777', '#0891b2', '#475569'];

function TagRow({ tag, canEdit }: { tag: Tag; canEdit: boolean }) {
  const id = useId();
  const [name, setName] = useState(tag.name);
  const update = useUpdateTag({ onSuccess: (t) => toast.success(`Tag "${t.name}" saved`), onError: errorToast });
  const remove = useDeleteTag({ onSuccess: () => toast.success(`Tag "${tag.name}" deleted`), onError: errorToast });
  return (
    <li className={own.tagRow}>
      <label htmlFor={`${id}-color`} className="visually-hidden">
        Colour of {tag.name}
      </label>
      <input id={`${id}-color`} type="color" value={tag.color} disabled={!canEdit || update.isPending} onChange={(e) => update.mutate({ id: tag.id, color: e.target.value })} />
      <label htmlFor={`${id}-name`} className="visually-hidden">
        Name of {tag.name}
      </label>
      <input
        id={`${id}-name`}
        className={styles.input}
        value={name}
        maxLength={TAG_NAME_MAX}
        disabled={!canEdit}
        onChange={(e) => setName(e.target.value)}
        onBlur={() => name.trim() && name.trim() !== tag.name && update.mutate({ id: tag.id, name: name.trim() })}
        onKeyDown={(e) => {
          if (e.key === 'Enter') (e.target as HTMLInputElement).blur();
        }}
      />
      {canEdit ? (
        <ConfirmButton question={`Delete the tag "${tag.name}"? It is taken off every review.`} pending={remove.isPending} onConfirm={() => remove.mutate(tag.id)} label={`Delete the tag ${tag.name}`}>
          Delete
        </ConfirmButton>
      ) : null}
    </li>
  );
}

export default function TagsManager({ canEdit }: { canEdit: boolean }) {
  const id = useId();
  const tags = useTags();
  const [name, setName] = useState('');
  const [color, setColor] = useState(COLORS[0]);
  const create = useCreateTag({
    onSuccess: (t) => {
      toast.success(`Tag "${t.name}" added`);
      setName('');
      setColor(COLORS[((tags.data?.length ?? 0) + 1) % COLORS.length]);
    },
    onError: errorToast,
  });
  return (
    <section className={styles.section} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className={styles.sectionTitle}>
        Tags
      </h2>
      {tags.isPending ? (
        <Skeleton rows={2} label="Loading the tags" />
      ) : tags.isError ? (
        <p role="alert">{tags.error.message}</p>
      ) : tags.data.length ? (
        <ul className={own.tags}>
          {tags.data.map((t) => (
            <TagRow key={`${t.id}:${t.name}`} tag={t} canEdit={canEdit} />
          ))}
        </ul>
      ) : (
        <p className={styles.muted}>No tags yet. Tags sort the inbox (billing, bugs, praise…); rules can add them for you.</p>
      )}
      {canEdit ? (
        <form
          className={own.tagRow}
          onSubmit={(e) => {
            e.preventDefault();
            if (name.trim()) create.mutate({ name: name.trim(), color });
          }}
        >
          <label htmlFor={`${id}-color`} className="visually-hidden">
            New tag colour
          </label>
          <input id={`${id}-color`} type="color" value={color} onChange={(e) => setColor(e.target.value)} />
          <label htmlFor={`${id}-name`} className="visually-hidden">
            New tag name
          </label>
          <input id={`${id}-name`} className={styles.input} placeholder="New tag, e.g. billing" value={name} maxLength={TAG_NAME_MAX} onChange={(e) => setName(e.target.value)} />
          <button type="submit" className={styles.quiet} disabled={!name.trim() || create.isPending} aria-busy={create.isPending}>
            Add tag
          </button>
        </form>
      ) : null}
    </section>
  );
}

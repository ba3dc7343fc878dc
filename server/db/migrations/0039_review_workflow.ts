import { sql, type Kysely } from 'kysely';

// A support team's queue (issue 32): per organisation and review, a workflow status, an assignee, tags and internal
// notes. A review with no review_workflow row is `new` with nobody assigned (rows are written only when someone or
// something acts on a review, never per stored review).
// - review_workflow: status new | needs_reply | replied | done, status_reason (e.g. "edited after your reply"),
//   assignee_id (a member; set null when the user is deleted). Looked up per review by its key (org_id, review_id);
//   the inbox starts from review_workflow_status_idx / review_workflow_assignee_idx when a status or an assignee is
//   rare among the organisation's reviews (server/reviews/data.ts).
// - tags: the organisation's tags, names unique per organisation whatever their case.
// - review_tags: a review's tags; the key (org_id, review_id, tag_id) serves "the tags of these reviews",
//   review_tags_tag_idx "the reviews with this tag" (the inbox's tag filter, the app's reviews per tag per week).
// - review_notes: internal notes (author, time), never sent to a store.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table review_workflow (
    org_id text not null references orgs(id) on delete cascade,
    review_id bigint not null references reviews(id) on delete cascade,
    status text not null default 'new' check (status in ('new', 'needs_reply', 'replied', 'done')),
    status_reason text,
    assignee_id text references users(id) on delete set null,
    updated_at timestamptz not null default now(),
    primary key (org_id, review_id)
  )`.execute(db);
  await sql`create index review_workflow_status_idx on review_workflow (org_id, status, review_id)`.execute(db);
  await sql`create index review_workflow_assignee_idx on review_workflow (org_id, assignee_id, review_id) where assignee_id is not null`.execute(db);

  await sql`create table tags (
    id text primary key,
    org_id text not null references orgs(id) on delete cascade,
    name text not null,
    color text not null,
    created_at timestamptz not null default now()
  )`.execute(db);
  await sql`create unique index tags_org_name_idx on tags (org_id, lower(name))`.execute(db);

  await sql`create table review_tags (
    org_id text not null references orgs(id) on delete cascade,
    review_id bigint not null references reviews(id) on delete cascade,
    tag_id text not null references tags(id) on delete cascade,
    created_at timestamptz not null default now(),
    primary key (org_id, review_id, tag_id)
  )`.execute(db);
  await sql`create index review_tags_tag_idx on review_tags (tag_id, review_id)`.execute(db);
  await sql`create index review_tags_review_idx on review_tags (review_id)`.execute(db);

  await sql`create table review_notes (
    id text primary key,
    org_id text not null references orgs(id) on delete cascade,
    review_id bigint not null references reviews(id) on delete cascade,
    author_user_id text references users(id) on delete set null,
    author_label text not null,
    text text not null,
    created_at timestamptz not null default now()
  )`.execute(db);
  await sql`create index review_notes_review_idx on review_notes (org_id, review_id, created_at)`.execute(db);
  await sql`create index review_notes_by_review_idx on review_notes (review_id)`.execute(db);
  await sql`create index review_workflow_review_idx on review_workflow (review_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['review_notes', 'review_tags', 'tags', 'review_workflow']) await sql`drop table if exists ${sql.raw(t)}`.execute(db);
}

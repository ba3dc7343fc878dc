import { sql, type Kysely } from 'kysely';

// Ask ARB conversations (POST/GET v1/public/ask-arb/chat). A visitor's chat has no organisation and is read by its id
// alone (random, unguessable); an organisation's chat only by its members. `app_key` is the app a visitor's chat is
// about; `filters`, `intent` and `topic`: the last question's, which a follow-up inherits. Messages keep the answer as shown, with the
// reviews it cites (`citations`, each a review's fields and its number) and how it was made (`method`).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('ask_arb_chats')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.references('orgs.id').onDelete('cascade'))
    .addColumn('app_key', 'text', (c) => c.references('apps.key').onDelete('cascade'))
    .addColumn('filters', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('intent', 'text')
    .addColumn('topic', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index ask_arb_chats_org_idx on ask_arb_chats (org_id, updated_at desc) where org_id is not null`.execute(db);
  await db.schema
    .createTable('ask_arb_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('chat_id', 'text', (c) => c.notNull().references('ask_arb_chats.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('user', 'assistant')`))
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('citations', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('method', 'text', (c) => c.notNull().check(sql`method in ('llm', 'computed', 'none')`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index ask_arb_messages_chat_seq_idx on ask_arb_messages (chat_id, seq)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('ask_arb_messages').ifExists().execute();
  await db.schema.dropTable('ask_arb_chats').ifExists().execute();
}

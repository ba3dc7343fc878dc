/**
 * A review's place in a support team's queue (issue 32), per organisation: the words the server, the dashboard and
 * the rules share. A review nobody has acted on is `new`.
 */
export const WORKFLOW_STATUSES = ['new', 'needs_reply', 'replied', 'done'] as const;
export type WorkflowStatus = (typeof WORKFLOW_STATUSES)[number];

/** The status_reason of a review sent back to needs_reply because the reviewer changed it after it was answered. */
export const EDITED_AFTER_REPLY_REASON = 'edited after your reply';

/** How the dashboard names each status. */
export const WORKFLOW_STATUS_LABELS: Record<WorkflowStatus, string> = { new: 'New', needs_reply: 'Needs reply', replied: 'Replied', done: 'Done' };

/** A tag's colour: #rrggbb. */
export const TAG_COLOR_PATTERN = /^#[0-9a-fA-F]{6}$/;
export const TAG_NAME_MAX = 40;
/** At most this many tags per organisation. */
export const TAGS_MAX = 200;
export const NOTE_MAX_CHARS = 5000;
/** At most this many reviews in one bulk change. */
export const BULK_MAX_IDS = 500;

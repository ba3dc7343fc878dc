/**
 * The words and choices of the AI features that the dashboard and the server share: reply tones, and what to say
 * while the server has no language model or no translator. Pure: the dashboard imports it.
 */

/** The tones "Draft a reply" writes in; each app of an organisation keeps one (org_apps.reply_tone). */
export const REPLY_TONES = ['friendly', 'formal', 'brief'] as const;
export type ReplyTone = (typeof REPLY_TONES)[number];
export const DEFAULT_REPLY_TONE: ReplyTone = 'friendly';

export const REPLY_TONE_LABELS: Record<ReplyTone, string> = { friendly: 'Friendly', formal: 'Formal', brief: 'Brief' };

/** 'German' for 'de' (English names, as the rest of ARB writes them); the code itself when unknown. */
export function languageName(code: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** Where an admin reads how the server's operator turns the AI features on (content/pages/help.md, "AI features"). */
export const AI_SETUP_GUIDE = '/help#ai-features';

/** The plain words for a server without a language model (never a setting's name: customers read them). */
export const AI_NOT_ENABLED = 'AI answers aren’t enabled on this server.';

/** What to show (and answer, with 503) while no translation service and no language model is configured. */
export const TRANSLATION_NOT_CONFIGURED = 'Translation isn’t enabled on this server.';

/** What the Draft button says (and the server answers, with 503) while no language model is configured. */
export const DRAFTS_NOT_CONFIGURED = `Drafting replies needs AI answers. ${AI_NOT_ENABLED}`;

/** The way to turn them on, by who reads it: an admin gets the setup guide (AI_SETUP_GUIDE), a member the person to ask. */
export const AI_ENABLE_FOR_MEMBERS = 'An admin of your organisation can have them turned on.';

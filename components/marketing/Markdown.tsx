/**
 * Shows Markdown that server/content.ts rendered to HTML at build time. The HTML comes from this repository's own
 * content/ folder (never from users), which is why injecting it is safe.
 */
import styles from './Markdown.module.css';

export default function Markdown({ html, dark = false, className }: { html: string; dark?: boolean; className?: string }) {
  const classes = [styles.prose, dark ? styles.dark : '', className ?? ''].filter(Boolean).join(' ');
  return <div className={classes} dangerouslySetInnerHTML={{ __html: html }} />;
}

/**
 * Shows Markdown that server/content.ts rendered to HTML at build time. The HTML comes from this repository's own
 * content/ folder (never from users), which is why injecting it is safe. Its links are plain links the browser follows
 * (some lead to files and API addresses the router has no page for): `data-native-links` keeps StaticContent's
 * router from taking them over.
 */
import styles from './Markdown.module.css';

export default function Markdown({ html, dark = false, className }: { html: string; dark?: boolean; className?: string }) {
  const classes = [styles.prose, dark ? styles.dark : '', className ?? ''].filter(Boolean).join(' ');
  return <div className={classes} data-native-links="" dangerouslySetInnerHTML={{ __html: html }} />;
}

/** The list of blog posts on /blog: title (linked), date, reading time and summary. */
import Link from 'next/link';
import { formatDate } from './DocPage';
import type { BlogPostSummary } from './types';
import styles from './PostList.module.css';

export default function PostList({ posts }: { posts: BlogPostSummary[] }) {
  return (
    <ul className={styles.list}>
      {posts.map((post) => (
        <li key={post.slug} className={styles.post}>
          <article>
            <h2 className={styles.title}>
              <Link href={`/blog/${post.slug}`} prefetch={false}>
                {post.title}
              </Link>
            </h2>
            <p className={styles.meta}>
              <time dateTime={post.date}>{formatDate(post.date)}</time> · {post.readingMinutes} min read
            </p>
            <p className={styles.summary}>{post.description}</p>
          </article>
        </li>
      ))}
    </ul>
  );
}

/** One blog post: the article (its own h1), its date, author and reading time, then the other posts. */
import Link from 'next/link';
import Seo from '@/components/layout/Seo';
import CTA from './CTA';
import { formatDate } from './DocPage';
import Markdown from './Markdown';
import type { BlogPost, BlogPostSummary } from './types';
import styles from './BlogPostPage.module.css';

export default function BlogPostPage({ post, more }: { post: BlogPost; more: BlogPostSummary[] }) {
  return (
    <>
      <Seo title={post.title} description={post.description} og_image={post.og_image} path={`/blog/${post.slug}`} />
      <article className={styles.article}>
        <p className={styles.back}>
          <Link href="/blog" prefetch={false}>
            ARB blog
          </Link>
        </p>
        <h1 className={styles.title}>{post.title}</h1>
        <p className={styles.meta}>
          By {post.author} · <time dateTime={post.date}>{formatDate(post.date)}</time> · {post.readingMinutes} min read
        </p>
        <p className={styles.lead}>{post.description}</p>
        <Markdown html={post.html} />
      </article>
      {more.length > 0 ? (
        <nav className={styles.more} aria-labelledby="more-heading">
          <h2 id="more-heading">More from the blog</h2>
          <ul>
            {more.map((p) => (
              <li key={p.slug}>
                <Link href={`/blog/${p.slug}`} prefetch={false}>
                  {p.title}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      <CTA />
    </>
  );
}

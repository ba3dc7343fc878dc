/** /blog: the posts, newest first. */
import Seo from '@/components/layout/Seo';
import CTA from './CTA';
import Hero from './Hero';
import Markdown from './Markdown';
import PostList from './PostList';
import type { BlogPostSummary, PageDoc } from './types';
import styles from './BlogIndex.module.css';

export default function BlogIndex({ doc, posts }: { doc: PageDoc; posts: BlogPostSummary[] }) {
  return (
    <>
      <Seo title={doc.title} description={doc.description} og_image={doc.og_image} path="/blog" />
      <Hero eyebrow="Blog" heading={doc.heading} lead={doc.lead} tone="light" />
      <div className={styles.body}>
        <PostList posts={posts} />
        <Markdown html={doc.html} className={styles.about} />
      </div>
      <CTA />
    </>
  );
}

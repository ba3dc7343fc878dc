import type { GetStaticPropsContext } from 'next';
import BlogPostPage from '@/components/marketing/BlogPostPage';
import { collectionPaths, getBlogPost, listBlogPosts } from '@/server/content';

export async function getStaticPaths() {
  return collectionPaths('blog');
}

export async function getStaticProps({ params }: GetStaticPropsContext<{ slug: string }>) {
  const slug = params!.slug;
  return { props: { post: getBlogPost(slug), more: listBlogPosts().filter((p) => p.slug !== slug) } };
}

export default BlogPostPage;

import BlogIndex from '@/components/marketing/BlogIndex';
import { getPageDoc, listBlogPosts } from '@/server/content';

export async function getStaticProps() {
  return { props: { doc: getPageDoc('blog'), posts: listBlogPosts() } };
}

export default BlogIndex;

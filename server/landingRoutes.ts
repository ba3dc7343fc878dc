/**
 * The data half of the five `[slug]` landing routes (features, platform, use-cases, sources/app-reviews, resources):
 * one page per content file of the collection, no fallback, and the cards of the related pages. The page half, which
 * draws them, is `landingRoutePage` (components/marketing/LandingRoutePage.tsx). A page file is then:
 *   export const getStaticPaths = landingPaths('features');
 *   export const getStaticProps = landingProps('features');
 *   export default landingRoutePage('features');
 */
import type { GetStaticPropsContext } from 'next';
import { collectionPaths, getLandingDoc, landingCards, type CollectionName } from './content';

export type LandingCollection = Exclude<CollectionName, 'blog'>;

export function landingPaths(collection: LandingCollection) {
  return async () => collectionPaths(collection);
}

/**
 * The page's document and the cards of its related pages: the collection's other pages, or, with `relatedFrom`,
 * every page of another collection (a guide points to the use cases that put it to work).
 */
export function landingProps(collection: LandingCollection, relatedFrom?: LandingCollection) {
  return async ({ params }: GetStaticPropsContext<{ slug: string }>) => {
    const slug = params!.slug;
    return { props: { doc: getLandingDoc(collection, slug), related: relatedFrom ? landingCards(relatedFrom) : landingCards(collection, slug) } };
  };
}

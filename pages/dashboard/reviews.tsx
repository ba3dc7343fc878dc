import QueryProvider from '@/components/common/QueryProvider';
import DashboardShell from '@/components/dashboard/DashboardShell';
import ReviewsPage from '@/components/dashboard/reviews/ReviewsPage';
import Seo from '@/components/layout/Seo';

export default function DashboardReviewsPage() {
  return (
    <>
      <Seo title="Reviews" description="Every review of your organisation's apps in one inbox: search, filter, export." path="/dashboard/reviews" noindex />
      <QueryProvider>
        <DashboardShell title="Reviews">
          <ReviewsPage />
        </DashboardShell>
      </QueryProvider>
    </>
  );
}

import { apiRoute } from '@/server/http/api';
import { stripePortal } from '@/server/billing/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ POST: stripePortal });

import { apiRoute } from '@/server/http/api';
import { appRatingsEndpoint } from '@/server/storeRatings/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ GET: appRatingsEndpoint });

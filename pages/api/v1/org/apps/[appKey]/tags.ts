import { apiRoute } from '@/server/http/api';
import { appTagWeeksEndpoint } from '@/server/workflow/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ GET: appTagWeeksEndpoint });

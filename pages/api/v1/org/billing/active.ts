import { apiRoute } from '@/server/http/api';
import { chooseActiveItems } from '@/server/billing/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ PUT: chooseActiveItems });

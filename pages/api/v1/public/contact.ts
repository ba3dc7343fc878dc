import { apiRoute } from '@/server/http/api';
import { contactMessage } from '@/server/contact/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ POST: contactMessage });

import { apiRoute } from '@/server/http/api';
import { askArbChat } from '@/server/askArb/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ POST: askArbChat });

import { apiRoute } from '@/server/http/api';
import { askArbChatHistory } from '@/server/askArb/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ GET: askArbChatHistory });

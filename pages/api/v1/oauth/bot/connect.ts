import { apiRoute } from '@/server/http/api';
import { botConnectEndpoint } from '@/server/connect/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ POST: botConnectEndpoint });

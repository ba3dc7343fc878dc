import { apiRoute } from '@/server/http/api';
import { mcpEndpoint } from '@/server/mcp/http';

export const config = { api: { bodyParser: false } };
export default apiRoute({ POST: mcpEndpoint });

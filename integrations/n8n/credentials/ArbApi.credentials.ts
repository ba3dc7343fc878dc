/**
 * An ARB organisation's API key (`arb_…`, made on /dashboard/api-keys) and the ARB server it belongs to. Every request
 * carries it as `Authorization: Bearer <key>`; n8n's "Test" button lists the organisation's apps (GET /api/v1/apps),
 * which answers 401 for a mistyped or revoked key and 402 for a plan without the API.
 */
import type { IAuthenticateGeneric, ICredentialTestRequest, ICredentialType, INodeProperties } from 'n8n-workflow';

export class ArbApi implements ICredentialType {
  name = 'arbApi';

  displayName = 'ARB API';

  properties: INodeProperties[] = [
    {
      displayName: 'Base URL',
      name: 'baseUrl',
      type: 'string',
      default: '',
      required: true,
      placeholder: 'https://arb.example.com',
      description: 'The address you open ARB at in your browser, without /api',
    },
    {
      displayName: 'API Key',
      name: 'apiKey',
      type: 'string',
      typeOptions: { password: true },
      default: '',
      required: true,
      placeholder: 'arb_…',
      description: 'A key from ARB\'s dashboard, API keys page: it reads and replies for that organisation only',
    },
  ];

  authenticate: IAuthenticateGeneric = {
    type: 'generic',
    properties: { headers: { Authorization: '=Bearer {{$credentials.apiKey}}' } },
  };

  test: ICredentialTestRequest = {
    request: { baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}', url: '/api/v1/apps', method: 'GET' },
  };
}

/**
 * The signing secret of an ARB webhook destination (`whsec_…`, shown once when the destination is made or its secret
 * rotated), with which the ARB Webhook Trigger checks that each request came from ARB, unchanged and recent.
 */
import type { ICredentialType, INodeProperties } from 'n8n-workflow';

export class ArbWebhookSecret implements ICredentialType {
  name = 'arbWebhookSecret';

  displayName = 'ARB Webhook Signing Secret';

  properties: INodeProperties[] = [
    {
      displayName: 'Signing Secret',
      name: 'secret',
      type: 'string',
      typeOptions: { password: true },
      default: '',
      required: true,
      placeholder: 'whsec_…',
      description: "The destination's signing secret, from ARB's dashboard (Destinations → your webhook)",
    },
  ];
}

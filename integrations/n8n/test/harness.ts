/**
 * Runs the built package (dist/, CommonJS, loaded by n8n's PackageDirectoryLoader from package.json's "n8n" section;
 * this one by default, another folder of nodes with `startN8n({ dir })`, as tests/fixtures/n8n-declarative) inside
 * n8n's own engine, n8n-core and n8n-workflow from npm, the way an n8n server does — no stand-ins for the
 * contexts a node sees:
 *   - workflows: `WorkflowExecute.run()` on a `Workflow` (manual mode), so parameters, expressions, resource locators,
 *     `httpRequestWithAuthentication`, credentials and errors go through n8n's code;
 *   - the credential test: a `RoutingNode` on an `ExecuteContext` running the credential's `test.request`, as n8n's
 *     CredentialsTester does;
 *   - the app picker: the node's `listSearch` method on a `LoadOptionsContext`, as the editor asks for it;
 *   - polling: `PollTriggerExecutor` (from n8n's DI container) running the trigger on a `PollContext` in trigger mode,
 *     its static data saved as JSON between polls only when n8n's observable says it changed (`__dataChanged`), as
 *     n8n persists it; manual mode through `WorkflowExecute` (n8n's "Fetch Test Event");
 *   - webhooks: the node's `webhook()` on a `WebhookContext` with the request n8n would hand it (headers, parsed
 *     body, raw body) and an express-like response.
 * What n8n's server adds around these (a database of credentials, encryption, the REST API) is replaced by a
 * credentials helper holding the test's credentials in memory and applying each credential type's `authenticate`
 * exactly as n8n's CredentialsHelper does (generic: expressions resolved by the workflow's own expression engine).
 * n8n-core and n8n-workflow are loaded with require() from this folder's node_modules so the engine and the package
 * share one copy of n8n-workflow (its CommonJS build), as in n8n.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import type * as Core from 'n8n-core';
import type * as Wf from 'n8n-workflow';

export const PACKAGE_DIR = path.resolve(__dirname, '..');
const load = createRequire(path.join(PACKAGE_DIR, 'package.json'));

/** A package of n8n nodes to build and load: its folder (package.json, tsconfig.build.json) and the files dist/ needs
 * besides the compiled ones. */
export type N8nPackage = { dir: string; assets?: string[] };
export const ARB_PACKAGE: N8nPackage = { dir: PACKAGE_DIR, assets: ['nodes/Arb/arb.svg'] };

type Data = Wf.ICredentialDataDecryptedObject;
export type Item = Wf.IDataObject;

/** n8n keeps its settings (an encryption key) under N8N_USER_FOLDER: a temporary one, never the user's ~/.n8n. */
function n8nUserFolder(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-user-'));
  process.env.N8N_USER_FOLDER = dir;
  process.env.N8N_ENCRYPTION_KEY ??= 'arb-n8n-node-tests';
  process.env.N8N_LOG_LEVEL ??= 'silent';
  return dir;
}

/**
 * The package as `npm pack` would ship it, in a fresh folder inside this one (so its requires resolve to this
 * node_modules, whichever package it is): package.json, and dist/ compiled by its own tsconfig.build.json, with its
 * assets (the icon).
 */
function buildPackage(pkg: N8nPackage): string {
  const out = fs.mkdtempSync(path.join(PACKAGE_DIR, '.test-build-'));
  const tsc = path.resolve(PACKAGE_DIR, '../../node_modules/typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', path.join(pkg.dir, 'tsconfig.build.json'), '--outDir', path.join(out, 'dist')], { stdio: 'pipe' });
  fs.copyFileSync(path.join(pkg.dir, 'package.json'), path.join(out, 'package.json'));
  for (const asset of pkg.assets ?? []) fs.copyFileSync(path.join(pkg.dir, asset), path.join(out, 'dist', asset));
  return out;
}

export type N8n = Awaited<ReturnType<typeof startN8n>>;

export async function startN8n(pkg: N8nPackage = ARB_PACKAGE) {
  if (!fs.existsSync(path.join(PACKAGE_DIR, 'node_modules/n8n-core'))) {
    throw new Error('integrations/n8n/node_modules is missing: npm install --prefix integrations/n8n --ignore-scripts (scripts/test.sh does it before the tests).');
  }
  const userFolder = n8nUserFolder();
  const built = buildPackage(pkg);
  const core = load('n8n-core') as typeof Core;
  const wf = load('n8n-workflow') as typeof Wf;
  const di = load('@n8n/di') as { Container: { get<T>(c: new (...a: never[]) => T): T } };

  // Loaded as n8n loads a community package: its loader reads package.json's "n8n" section and requires each file.
  const loader = new core.PackageDirectoryLoader(built);
  await loader.loadAll();
  const nodeTypesByName = Object.fromEntries(
    Object.entries(loader.nodeTypes).map(([name, { type }]) => [`${loader.packageName}.${name}`, type as Wf.INodeType]),
  );
  const credentialTypes = Object.fromEntries(Object.entries(loader.credentialTypes).map(([name, { type }]) => [name, type]));
  const nodeTypes: Wf.INodeTypes = {
    getByName: (type) => known(type),
    getByNameAndVersion: (type, version) => wf.NodeHelpers.getVersionedNodeType(known(type), version),
    getKnownTypes: () => ({}),
  };
  function known(type: string): Wf.INodeType {
    const t = nodeTypesByName[type] ?? extraTypes.get(type);
    if (!t) throw new Error(`unknown node type ${type}`);
    return t;
  }
  const extraTypes = new Map<string, Wf.INodeType>();

  /** Credentials saved in "n8n", by id: what the credential form would store. */
  const saved = new Map<string, { type: string; data: Data }>();
  const withDefaults = (type: string, data: Data): Data => {
    const defaults = Object.fromEntries(credentialTypes[type].properties.map((p) => [p.name, p.default as Wf.CredentialInformation]));
    return { ...defaults, ...data };
  };

  class CredentialsHelper extends wf.ICredentialsHelper {
    getParentTypes = () => [];
    isCredentialUsableByNode = () => true;
    getCredentialsProperties = (type: string) => credentialTypes[type].properties;
    async getDecrypted(_a: Wf.IWorkflowExecuteAdditionalData, nodeCredentials: Wf.INodeCredentialsDetails, type: string): Promise<Data> {
      const c = nodeCredentials.id ? saved.get(nodeCredentials.id) : undefined;
      if (!c || c.type !== type) throw new Error(`no ${type} credential ${nodeCredentials.id}`);
      return withDefaults(type, c.data);
    }
    async getCredentials(nodeCredentials: Wf.INodeCredentialsDetails, type: string): Promise<Wf.ICredentials> {
      const c = nodeCredentials.id ? saved.get(nodeCredentials.id) : undefined;
      const credentials = new core.Credentials({ id: nodeCredentials.id, name: nodeCredentials.name }, type);
      if (c) await credentials.setData(c.data);
      return credentials;
    }
    async updateCredentials() {}
    async updateCredentialsOauthTokenData() {}
    async preAuthentication() {
      return undefined;
    }
    async runPreAuthentication() {
      return undefined;
    }
    // As n8n's CredentialsHelper.authenticate: a function is called; `generic` sets each header, query or body field,
    // its name and value resolved as expressions with $credentials by the workflow's expression engine.
    async authenticate(credentials: Data, typeName: string, options: Wf.IHttpRequestOptions | Wf.IRequestOptionsSimplified, workflow?: Wf.Workflow, node?: Wf.INode): Promise<Wf.IHttpRequestOptions> {
      const auth = credentialTypes[typeName].authenticate;
      if (typeof auth === 'function') return await auth(credentials, options as Wf.IHttpRequestOptions);
      if (auth?.type === 'generic') {
        if (!workflow || !node) throw new Error('declarative credentials need the workflow and the node');
        const resolve = (v: string) => String(workflow.expression.getSimpleParameterValue(node, v, 'internal', { $credentials: credentials }, undefined, '') ?? '');
        const target = options as unknown as Record<string, Record<string, string>>;
        for (const [where, fields] of Object.entries(auth.properties)) {
          target[where] ??= {};
          for (const [k, v] of Object.entries(fields as Record<string, string>)) target[where][resolve(k)] = resolve(v);
        }
      }
      return options as Wf.IHttpRequestOptions;
    }
  }
  const credentialsHelper = new CredentialsHelper();

  const workflowBase = (nodes: Wf.INode[] = []): Wf.IWorkflowBase => ({
    id: 'wf1', name: 'ARB test', active: false, isArchived: false, nodes, connections: {}, createdAt: new Date(), updatedAt: new Date(), settings: {},
  } as Wf.IWorkflowBase);

  function additionalData(mode: Wf.WorkflowExecuteMode, extra: Partial<Wf.IWorkflowExecuteAdditionalData> = {}): Wf.IWorkflowExecuteAdditionalData {
    return {
      credentialsHelper,
      hooks: new core.ExecutionLifecycleHooks(mode, 'exec1', workflowBase()),
      executeWorkflow: async () => {
        throw new Error('no sub-workflows here');
      },
      getRunExecutionData: async () => undefined,
      getRuntimeCredential: async () => undefined,
      currentNodeExecutionIndex: 0,
      restApiUrl: 'http://localhost:5678/rest',
      instanceBaseUrl: 'http://localhost:5678/',
      formBaseUrl: 'http://localhost:5678/form',
      formWaitingBaseUrl: 'http://localhost:5678/form-waiting',
      formTestBaseUrl: 'http://localhost:5678/form-test',
      webhookBaseUrl: 'http://localhost:5678/webhook',
      webhookWaitingBaseUrl: 'http://localhost:5678/webhook-waiting',
      webhookTestBaseUrl: 'http://localhost:5678/webhook-test',
      mcpBaseUrl: 'http://localhost:5678/mcp',
      mcpTestBaseUrl: 'http://localhost:5678/mcp-test',
      variables: {},
      logAiEvent: () => {},
      ...extra,
    } as Wf.IWorkflowExecuteAdditionalData;
  }

  let nextId = 0;
  /** A node of this package in a workflow, with a credential saved for it. */
  function node(type: string, parameters: Wf.INodeParameters, credential?: { type: string; data: Data }): Wf.INode {
    const id = `n${++nextId}`;
    const credentials: Wf.INodeCredentials = {};
    if (credential) {
      saved.set(`cred-${id}`, credential);
      credentials[credential.type] = { id: `cred-${id}`, name: credential.type };
    }
    return { id, name: `${type} ${id}`, type: `${loader.packageName}.${type}`, typeVersion: 1, position: [0, 0], parameters, credentials };
  }

  const workflowOf = (nodes: Wf.INode[], staticData?: Wf.IDataObject) =>
    new wf.Workflow({ id: 'wf1', name: 'ARB test', nodes, connections: {}, active: false, nodeTypes, staticData, settings: {} });

  return {
    core,
    wf,
    node,

    /** Runs a one-node workflow in manual mode: the node's output items, or the error n8n recorded for it. */
    async run(n: Wf.INode): Promise<{ items: Item[]; error?: Wf.ExecutionBaseError }> {
      const workflow = workflowOf([n]);
      const result = await new core.WorkflowExecute(additionalData('manual'), 'manual').run({ workflow, startNode: workflow.getNode(n.name)! });
      const task = result.data.resultData.runData[n.name]?.[0];
      const error = task?.error ?? result.data.resultData.error;
      return { items: (task?.data?.main?.[0] ?? []).map((i) => i.json), error };
    },

    /** The credential test n8n's "Test" button runs: the credential type's `test.request` through a RoutingNode. */
    async testCredential(type: string, data: Data): Promise<Wf.INodeCredentialTestResult> {
      const test = credentialTypes[type].test;
      if (!test) throw new Error(`${type} has no test`);
      const probe: Wf.INodeType = {
        description: {
          displayName: 'Credential test', name: 'n8n-nodes-base.noOp', group: ['transform'], version: 1, description: '', defaults: {},
          inputs: ['main'], outputs: ['main'],
          credentials: [{ name: type, required: true }],
          properties: [{ displayName: 'Temp', name: 'temp', type: 'string', default: '', routing: { request: test.request } }],
        },
      };
      extraTypes.set(probe.description.name, probe);
      saved.set('cred-test', { type, data });
      const n: Wf.INode = { id: 'temp', name: 'Temp-Node', type: probe.description.name, typeVersion: 1, position: [0, 0], parameters: {}, credentials: { [type]: { id: 'cred-test', name: 'test' } } };
      const workflow = workflowOf([n]);
      const context = new core.ExecuteContext(workflow, n, additionalData('internal'), 'internal', { resultData: { runData: {} } } as Wf.IRunExecutionData, 0, [], { main: [[{ json: {} }]] }, { node: n, data: {}, source: null }, []);
      try {
        await new core.RoutingNode(context, probe, { id: 'cred-test', name: 'test', type, data: withDefaults(type, data) }).runNode();
        return { status: 'OK', message: 'Connection successful!' };
      } catch (error) {
        const response = (error as { cause?: { response?: { status: number; statusText?: string } } }).cause?.response;
        if (response && (response.status < 200 || response.status > 299)) return { status: 'Error', message: response.statusText || `Received HTTP status code: ${response.status}` };
        return { status: 'Error', message: String((error as Error).message) };
      } finally {
        extraTypes.delete(probe.description.name);
      }
    },

    /** What the editor's app picker lists: the node's listSearch method through a LoadOptionsContext. */
    async listSearch(n: Wf.INode, method: string, filter?: string): Promise<Wf.INodeListSearchResult> {
      const workflow = workflowOf([n]);
      const context = new core.LoadOptionsContext(workflow, n, additionalData('internal'), 'parameters.app');
      const type = known(n.type);
      const search = type.methods?.listSearch?.[method];
      if (!search) throw new Error(`${n.type} has no listSearch ${method}`);
      return await search.call(context, filter);
    },

    /**
     * One automatic poll of an active workflow: the trigger on a PollContext (mode trigger, activation "activate"),
     * run by n8n's PollTriggerExecutor. `staticData` is the workflow's static data as n8n stored it (JSON); the
     * answer carries what was emitted and the static data n8n would store afterwards (unchanged when n8n would not
     * save it).
     */
    async poll(n: Wf.INode, staticData: string): Promise<{ emitted: Item[] | null; staticData: string }> {
      const workflow = workflowOf([n], JSON.parse(staticData) as Wf.IDataObject);
      let stored = staticData;
      const save = () => {
        if (workflow.staticData.__dataChanged !== true) return;
        workflow.staticData.__dataChanged = false; // not enumerable: JSON.stringify leaves it out
        stored = JSON.stringify(workflow.staticData);
      };
      let emitted: Item[] | null = null;
      let failure: Error | undefined;
      const context = new core.PollContext(
        workflow, n, additionalData('trigger'), 'trigger', 'activate',
        (data) => {
          save();
          emitted = data[0].map((i) => i.json);
        },
        (error) => {
          failure = error;
        },
        async () => save(),
      );
      const executor = di.Container.get(core.PollTriggerExecutor);
      await executor.create(workflow, n, context, () => true)(false);
      if (failure) throw failure;
      return { emitted, staticData: stored };
    },

    /** n8n's "Fetch Test Event" on a polling trigger: the workflow run in manual mode from the trigger. */
    async manualPoll(n: Wf.INode): Promise<{ items: Item[]; staticData: Wf.IDataObject }> {
      const workflow = workflowOf([n], {});
      const result = await new core.WorkflowExecute(additionalData('manual'), 'manual').run({ workflow, startNode: workflow.getNode(n.name)! });
      const task = result.data.resultData.runData[n.name]?.[0];
      if (task?.error) throw task.error;
      return { items: (task?.data?.main?.[0] ?? []).map((i) => i.json), staticData: { ...workflow.staticData } };
    },

    /**
     * One request to a webhook trigger, as n8n's webhook server hands it over: `raw` is the body's exact bytes (n8n's
     * body parser keeps them as `rawBody`), parsed as JSON for `body`. Answers what the node returned and what it
     * answered itself, if it did.
     */
    async webhook(n: Wf.INode, request: { headers: Record<string, string | string[] | undefined>; raw: string }) {
      const workflow = workflowOf([n]);
      const answered: { status?: number; body?: unknown } = {};
      const res = {
        status(code: number) {
          answered.status = code;
          return res;
        },
        json(body: unknown) {
          answered.body = body;
          return res;
        },
        send(body: unknown) {
          answered.body = body;
          return res;
        },
        end() {
          return res;
        },
        setHeader() {
          return res;
        },
      };
      const req = {
        method: 'POST', url: '/webhook/arb', headers: request.headers, body: JSON.parse(request.raw) as unknown,
        rawBody: Buffer.from(request.raw), query: {}, params: {},
      };
      const data = additionalData('webhook', { httpRequest: req as never, httpResponse: res as never });
      const type = known(n.type);
      const description = type.description.webhooks![0];
      const webhookData: Wf.IWebhookData = { httpMethod: 'POST', node: n.name, path: String(description.path), webhookDescription: description, workflowId: 'wf1', workflowExecuteAdditionalData: data };
      const context = new core.WebhookContext(workflow, n, data, 'webhook', webhookData, [], null);
      const result = await type.webhook!.call(context);
      return { result, answered, items: result.workflowData?.[0]?.map((i) => i.json) ?? null };
    },

    /** The node and credential types n8n's loader found in the package. */
    loaded: { nodes: Object.keys(nodeTypesByName).sort(), credentials: Object.keys(credentialTypes).sort() },

    close() {
      fs.rmSync(built, { recursive: true, force: true });
      fs.rmSync(userFolder, { recursive: true, force: true });
    },
  };
}

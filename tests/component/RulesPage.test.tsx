/**
 * /dashboard/rules against a loopback API: each rule in words ("When … Then …") with how often it fired this week; a new
 * rule made in the editor is sent as the API takes it (only the conditions filled in), the API's refusal shown in its
 * own words; a dry run says how many of the last reviews would match, and what would happen to each.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { Toaster } from 'react-hot-toast';
import { describe, expect, test } from 'vitest';
import { json, type FakeHandler } from '@/tests/fakes/http';
import { notPreflight, ok, route } from './support/apiFake';
import { member, org, orgApp } from './support/answers';
import { signedInWithApiFake } from './support/signedIn';
import { render } from '@/tests/helpers/render';
import RulesPage from '@/components/dashboard/rules/RulesPage';
import type { ApiData } from '@/lib/api/openapi';
import type { OrgRole } from '@/lib/api/org';

const api = signedInWithApiFake();

type Rule = ApiData<'/api/v1/org/rules', 'get'>[number];
type RuleTest = ApiData<'/api/v1/org/rules/{id}/test', 'post'>;

const APP = orgApp({ app_id: 'com.example.garden', app_store: 'google_play_store', title: 'Pocket Garden' });
const billing = { id: 'tag_aaaaaaaaaaaaaaaaaaaaaaaa', name: 'billing', color: '#dc2626', reviews: 4, created_at: '2030-01-01T00:00:00.000Z' };
const ana = member('usr_ana', 'ana@example.com', 'admin', true, { name: 'Ana' });

const rule = (id: string, over: Partial<Rule>): Rule => ({
  id,
  name: 'A rule',
  enabled: true,
  position: 0,
  apps: null,
  conditions: {},
  actions: [],
  stop_after: false,
  fired_this_week: 0,
  created_at: '2030-01-01T00:00:00.000Z',
  updated_at: '2030-01-01T00:00:00.000Z',
  ...over,
});

const refunds = rule('rul_refunds', {
  name: 'Refunds to billing',
  conditions: { ratings: [1, 2], keywords_any: ['refund', 'money back'] },
  actions: [{ type: 'tag', tag_id: billing.id }, { type: 'assign', user_id: ana.id }],
  stop_after: true,
  fired_this_week: 1234,
});
const praise = rule('rul_praise', { name: 'Praise is done', position: 1, apps: [APP.key], conditions: { ratings: [5] }, actions: [{ type: 'set_status', status: 'done' }], fired_this_week: 1 });

/** The page's lists: the organisation (with this role), rules, apps, tags, members, destinations and templates. */
const lists = (role: OrgRole, rules: Rule[]): FakeHandler[] => [
  route('GET', '/api/v1/org', ok(org(role))),
  route('GET', '/api/v1/org/rules', ok(rules)),
  route('GET', '/api/v1/org/apps', ok([APP])),
  route('GET', '/api/v1/org/tags', ok([billing])),
  route('GET', '/api/v1/org/members', ok([ana])),
  route('GET', '/api/v1/org/destinations', ok([])),
  route('GET', '/api/v1/org/reply-templates', ok([])),
];

const sent = (method: string, path: string) => api.fake!.requests.filter(notPreflight).filter((r) => r.method === method && r.path === path);

function openRules() {
  return render(
    <>
      <RulesPage />
      <Toaster />
    </>,
    { url: '/dashboard/rules' },
  );
}

/** The list item of the rule with this name. */
const ruleItem = (name: string) => screen.getByRole('listitem', { name });

describe('/dashboard/rules', () => {
  test('each rule in words, in its order, with how often it fired this week', async () => {
    await api.start(lists('admin', [praise, refunds]));
    openRules();
    const first = await screen.findByRole('listitem', { name: 'Refunds to billing' });
    // In the order they run (position), not the order of the answer.
    expect(screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual(['Refunds to billing', 'Praise is done']);

    expect(first).toHaveTextContent('When 1★, 2★ · mentions “refund” or “money back” (every app)');
    // The tag's and the member's names come with their own lists.
    await waitFor(() => expect(first).toHaveTextContent('Then tag billing, then assign to Ana; and stop (the rules after it do not run)'));
    expect(first).toHaveTextContent('Fired 1,234 times this week');
    const second = ruleItem('Praise is done');
    expect(second).toHaveTextContent('When 5★ (Pocket Garden)');
    expect(second).toHaveTextContent('Then set Done');
    expect(second).toHaveTextContent('Fired 1 time this week');
    expect(within(second).getByRole('switch', { name: 'Praise is done enabled' })).toBeChecked();
  });

  test('a new rule is sent with only the conditions filled in; the API’s refusal is said in its words, then it is saved', async () => {
    const created = rule('rul_new', { name: '1★ refunds', position: 1, conditions: { ratings: [1], keywords_any: ['refund'] }, actions: [{ type: 'tag', tag_id: billing.id }] });
    let rules = [refunds];
    const refusal = 'actions[0].tag_id: tag_aaaaaaaaaaaaaaaaaaaaaaaa is not a tag of your organisation. GET /api/v1/org/tags lists them.';
    // These two answer first: the rules list as it is, and the create (refused once, then saved).
    await api.start([
      (req, res) => {
        if (req.method !== 'POST' || req.path !== '/api/v1/org/rules') return false;
        if (sent('POST', '/api/v1/org/rules').length === 1) json(res, 400, { error: { code: 'unknown_tag', message: refusal } });
        else {
          rules = [refunds, created];
          json(res, 201, { data: created });
        }
        return true;
      },
      (req, res) => (req.method === 'GET' && req.path === '/api/v1/org/rules' ? (json(res, 200, { data: rules }), true) : false),
      ...lists('admin', rules),
    ]);
    const { user } = openRules();
    await user.click(await screen.findByRole('button', { name: 'New rule' }));
    const editor = screen.getByRole('form', { name: 'New rule' });
    const add = within(editor).getByRole('button', { name: 'Add rule' });
    expect(add).toBeDisabled();

    await user.type(within(editor).getByLabelText('Name'), '1★ refunds');
    await user.click(within(within(editor).getByRole('group', { name: 'Rating' })).getByRole('checkbox', { name: '1★' }));
    await user.type(within(editor).getByLabelText('Mentions any of'), 'refund, ');
    expect(add).toBeDisabled();
    await user.click(within(editor).getByRole('button', { name: 'Add an action' }));
    expect(within(editor).getByLabelText('Action 1')).toHaveValue('tag');
    expect(within(editor).getByLabelText('Tag')).toHaveValue(billing.id);
    await user.click(add);

    expect(await screen.findByText(refusal)).toBeInTheDocument();
    const [post] = sent('POST', '/api/v1/org/rules');
    expect(JSON.parse(post.body)).toEqual({
      name: '1★ refunds',
      enabled: true,
      apps: null,
      conditions: { ratings: [1], keywords_any: ['refund'] },
      actions: [{ type: 'tag', tag_id: billing.id }],
      stop_after: false,
    });
    // Refused, the editor stays with what was written.
    expect(within(editor).getByLabelText('Name')).toHaveValue('1★ refunds');

    await user.click(add);
    expect(await screen.findByText('Rule "1★ refunds" saved')).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'New rule' })).toBeNull();
    expect(await screen.findByRole('listitem', { name: '1★ refunds' })).toHaveTextContent('When 1★ · mentions “refund” (every app)');
    expect(JSON.parse(sent('POST', '/api/v1/org/rules')[1].body)).toEqual(JSON.parse(post.body));
  });

  test('a dry run says how many of the last reviews would match and what would happen to each; none is said too', async () => {
    const matches: RuleTest = {
      rule_id: refunds.id,
      checked: 200,
      matched: 2,
      reviews: [
        { review_id: '101', app_key: APP.key, rating: 1, author: 'Rin', excerpt: 'I want a refund', written_at: '2030-01-02T09:00:00.000Z', updated_at: '2030-01-02T09:00:00.000Z', would: ['tag billing', 'assign to ana@example.com'], stopped_by: null },
        { review_id: '102', app_key: APP.key, rating: 2, author: 'Ola', excerpt: 'Money back please', written_at: null, updated_at: '2030-01-02T08:00:00.000Z', would: [], stopped_by: { id: 'rul_first', name: 'First' } },
      ],
    };
    await api.start([
      ...lists('member', [refunds, praise]),
      route('POST', '/api/v1/org/rules/rul_refunds/test', ok(matches)),
      route('POST', '/api/v1/org/rules/rul_praise/test', ok({ rule_id: praise.id, checked: 37, matched: 0, reviews: [] })),
    ]);
    const { user } = openRules();
    await screen.findByRole('listitem', { name: 'Refunds to billing' });
    // A member reads and dry-runs; changing is for admins.
    expect(await screen.findByText(/Admins and owners change rules/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New rule' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Edit Refunds to billing' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Dry run of Refunds to billing' }));
    const table = await screen.findByRole('table', { name: 'Dry run of “Refunds to billing”: 2 of the last 200 reviews would match' });
    const [, rin, ola] = within(table).getAllByRole('row');
    expect(rin).toHaveTextContent('Rin · Pocket Garden');
    expect(within(rin).getByRole('link', { name: 'I want a refund' })).toHaveAttribute('href', '/dashboard/reviews?review=101');
    expect(within(rin).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['tag billing', 'assign to ana@example.com']);
    expect(ola).toHaveTextContent('Nothing: the rule “First” takes it first and stops there.');

    await user.click(screen.getByRole('button', { name: 'Dry run of Praise is done' }));
    expect(await within(ruleItem('Praise is done')).findByRole('status')).toHaveTextContent('Dry run of “Praise is done”: 0 of the last 37 reviews would match. Nothing would happen.');
    await waitFor(() => expect(sent('POST', '/api/v1/org/rules/rul_praise/test')).toHaveLength(1));
    expect(sent('POST', '/api/v1/org/rules/rul_refunds/test')).toHaveLength(1);
  });
});

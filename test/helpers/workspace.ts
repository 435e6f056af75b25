/** The workspace most API tests run against: every account, user and key state the contract distinguishes. */
import type { Workspace } from '../../src/seed/workspace.js';

export const KEYS = {
  full: 'svc_sk_test_acme_full_0000000000000000',
  readOnly: 'svc_sk_test_acme_read_0000000000000000',
  callsOnly: 'svc_sk_test_acme_calls_000000000000000',
  revoked: 'svc_sk_test_acme_revoked_0000000000000',
  ownerInactive: 'svc_sk_test_acme_owner_gone_00000000000',
  deletedTeam: 'svc_sk_test_acme_deleted_team_00000000',
  east: 'svc_sk_test_acme_east_0000000000000000',
  suspended: 'svc_sk_test_suspended_00000000000000000',
  unpaid: 'svc_sk_test_unpaid_000000000000000000000',
  noFeature: 'svc_sk_test_nofeature_000000000000000000',
  other: 'svc_sk_test_other_account_0000000000000',
  unknown: 'svc_sk_test_never_issued_00000000000000',
};

export const SCORECARDS = {
  discovery: '11111111-1111-4111-8111-111111111111',
  negotiation: '22222222-2222-4222-8222-222222222222',
  draft: '33333333-3333-4333-8333-333333333333',
  eastDefault: '44444444-4444-4444-8444-444444444444',
  archived: '55555555-5555-4555-8555-555555555555',
  otherAccount: '66666666-6666-4666-8666-666666666666',
};

const criteria = [
  {
    key: 'next_steps',
    title: 'Agrees next steps',
    weight: 1,
    check: { type: 'phrases', any: ['next step'] },
  },
];
const password = 'correct horse battery staple';

function blockedAccount(
  name: string,
  status: 'active' | 'suspended' | 'payment_required',
  features: string[],
  secret: string,
) {
  return {
    name,
    status,
    features,
    teams: [{ name: 'Team' }],
    users: [
      { email: `admin@${name.toLowerCase()}.test`, name: 'Admin', role: 'admin' as const, teams: ['Team'] },
    ],
    scorecards: [{ team: 'Team', name: 'Card', criteria }],
    team_settings: [{ team: 'Team', default_scorecard: 'Card' }],
    api_keys: [{ secret, team: 'Team', created_by: `admin@${name.toLowerCase()}.test` }],
  };
}

export const TEST_WORKSPACE: Workspace = {
  accounts: [
    {
      name: 'Acme',
      status: 'active',
      features: ['call_scoring_api'],
      teams: [{ name: 'West' }, { name: 'East' }, { name: 'Gone', deleted: true }, { name: 'Bare' }],
      users: [
        { email: 'ada@acme.test', name: 'Ada Park', password, role: 'admin', teams: ['West'] },
        { email: 'Bob.Stone@acme.test', name: 'Bob Stone', password, role: 'rep', teams: ['West'] },
        { email: 'erin@acme.test', name: 'Erin East', password, role: 'rep', teams: ['East'] },
        { email: 'multi@acme.test', name: 'Mia Multi', role: 'rep', teams: ['West', 'East'] },
        { email: 'loner@acme.test', name: 'Lee Loner', role: 'rep', teams: [] },
        { email: 'bare@acme.test', name: 'Bea Bare', role: 'rep', teams: ['Bare'] },
        { email: 'gone@acme.test', name: 'Gus Gone', role: 'rep', teams: ['West'], status: 'inactive' },
        { email: 'new@acme.test', name: 'Nia New', role: 'rep', teams: ['West'], status: 'pending' },
        {
          email: 'former@acme.test',
          name: 'Former Admin',
          role: 'admin',
          teams: ['West'],
          status: 'inactive',
        },
      ],
      scorecards: [
        { id: SCORECARDS.discovery, team: 'West', name: 'Discovery', criteria },
        { id: SCORECARDS.negotiation, team: 'West', name: 'Negotiation', criteria },
        { id: SCORECARDS.draft, team: 'West', name: 'Draft', status: 'draft', criteria },
        { id: SCORECARDS.archived, team: 'East', name: 'Old', status: 'archived', criteria },
        { id: SCORECARDS.eastDefault, team: 'East', name: 'East default', criteria },
      ],
      team_settings: [
        { team: 'West', default_scorecard: 'Discovery', rules: { negotiation: 'Negotiation' } },
        { team: 'East', default_scorecard: 'East default', rules: { negotiation: 'Old' } },
      ],
      api_keys: [
        { secret: KEYS.full, team: 'West', created_by: 'ada@acme.test' },
        { secret: KEYS.readOnly, team: 'West', created_by: 'ada@acme.test', scopes: ['calls:read'] },
        { secret: KEYS.callsOnly, team: 'West', created_by: 'ada@acme.test', scopes: ['calls:write'] },
        { secret: KEYS.revoked, team: 'West', created_by: 'ada@acme.test', revoked: true },
        { secret: KEYS.ownerInactive, team: 'West', created_by: 'former@acme.test' },
        { secret: KEYS.deletedTeam, team: 'Gone', created_by: 'ada@acme.test' },
        { secret: KEYS.east, team: 'East', created_by: 'ada@acme.test' },
      ],
    },
    {
      ...blockedAccount('Other', 'active', ['call_scoring_api'], KEYS.other),
      scorecards: [{ id: SCORECARDS.otherAccount, team: 'Team', name: 'Card', criteria }],
    },
    blockedAccount('Suspended', 'suspended', ['call_scoring_api'], KEYS.suspended),
    blockedAccount('Unpaid', 'payment_required', ['call_scoring_api'], KEYS.unpaid),
    blockedAccount('Nofeature', 'active', [], KEYS.noFeature),
  ],
};

/** A realistic small dialogue where the rep (Bob Stone) speaks second. */
export function sampleSegments(suffix = '') {
  return [
    { speaker: 'Carla Diaz', text: `Hi, thanks for making time today.${suffix}`, start_ms: 0 },
    {
      speaker: 'Bob Stone',
      text: 'Of course. Could you walk me through how your team handles renewals today?',
      start_ms: 4000,
    },
    { speaker: 'Carla Diaz', text: 'Mostly spreadsheets, and we lose track of dates.', start_ms: 9000 },
    {
      speaker: 'Bob Stone',
      text: 'What does a missed renewal cost you? As a next step I will send a calendar invite.',
      start_ms: 15000,
    },
  ];
}

/**
 * A cold call with generic labels where the rep ("Speaker 2") speaks second and no name or email names them: only
 * inference from the dialogue can find the rep speaker.
 */
export function inferableSegments() {
  return [
    { speaker: 'Speaker 1', text: 'Hello, this is Dana speaking.' },
    {
      speaker: 'Speaker 2',
      text: 'Hi Dana, this is Sam from Acme Analytics. The reason for my call is that we help logistics teams cut late deliveries. Did I catch you at a bad time?',
    },
    { speaker: 'Speaker 1', text: "I have a few minutes. We're currently using spreadsheets for routing." },
    {
      speaker: 'Speaker 2',
      text: 'How are you handling delays today? What does a missed delivery window cost you?',
    },
    {
      speaker: 'Speaker 1',
      text: 'Honestly it costs us customers. Our budget is tight this quarter though.',
    },
    {
      speaker: 'Speaker 2',
      text: 'Understood. Our platform plugs into your current tools. Could we book thirty minutes next week? I will send you a calendar invite.',
    },
    { speaker: 'Speaker 1', text: 'Sure, send me the invite.' },
  ];
}

/** A valid request; each call gets its own external_id and its own transcript, so tests never collide. */
export function callBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const unique = Math.random().toString(36).slice(2);
  return {
    external_id: `call-${unique}`,
    provider: 'Zoom',
    occurred_at: '2026-11-20T15:04:05Z',
    call_type: 'discovery',
    rep: { email: 'bob.stone@acme.test' },
    transcript: { segments: sampleSegments(` Ref ${unique}.`) },
    ...overrides,
  };
}

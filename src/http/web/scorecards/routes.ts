/**
 * /scorecards: managers manage their teams' scorecards, admins every team's. Create from a template (draft,
 * version 1), edit criteria as JSON (validated with validateCriteria; every save adds a version), publish /
 * archive / back to draft, and the team's default scorecard and per-call-type rules. A scorecard or team outside
 * the viewer's scope is 404; reps get 404 for every page here.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { CALL_TYPES } from '../../../ingest/classify-call.js';
import { validateCriteria, type Criterion } from '../../../scoring/criteria.js';
import { compareCriteria } from '../../../scoring/criteria-changes.js';
import { SCORECARD_TEMPLATES } from '../../../scoring/templates.js';
import type { Database } from '../../../store/schema.js';
import { viewerTeams } from '../../../store/web-calls.repo.js';
import {
  createScorecard,
  findManageableScorecard,
  saveScorecardVersion,
  saveTeamChoice,
  scorecardNameTaken,
  scorecardVersions,
  scorecardsOfTeams,
  updateScorecard,
  teamChoice,
} from '../../../store/scorecards-admin.repo.js';
import { scorecardVersion } from '../../../store/scorecards.repo.js';
import { sendPage } from '../render.js';
import { callTypeLabel } from '../views/format.js';
import { formField, requireSignIn, sessionCsrfValid, viewerOf } from '../session.js';
import { idParam, isManager, queryParam, sendExpiredForm, sendNotFound, UUID } from '../coaching/common.js';
import {
  SCORECARD_NOTICES,
  ScorecardPage,
  ScorecardsPage,
  ScorecardVersionPage,
  type TeamBlock,
} from './views.js';

const MAX_NAME_CHARS = 100;
const MAX_CRITERIA_JSON = 60_000;

export async function scorecardRoutes(
  app: FastifyInstance,
  options: { db: Kysely<Database>; staging: boolean },
): Promise<void> {
  const { db, staging } = options;
  app.addHook('preHandler', requireSignIn);
  // Reps have no scorecard pages at all.
  app.addHook('preHandler', async (request, reply) => {
    if (reply.sent || !request.webSession) return;
    if (!isManager(request.webSession.user.role)) await sendNotFound(reply, request.webSession, staging);
  });

  async function listPage(
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    extra: { error?: string; form?: { team: string; template: string; name: string } } = {},
  ) {
    const session = request.webSession!;
    const teams = await viewerTeams(db, viewerOf(session));
    const cards = await scorecardsOfTeams(
      db,
      teams.map((t) => t.id),
    );
    const blocks: TeamBlock[] = [];
    for (const t of teams) {
      const choice = await teamChoice(db, t.id);
      blocks.push({
        id: t.id,
        name: t.name,
        scorecards: cards
          .filter((c) => c.team_id === t.id)
          .map((c) => ({ ...c, current_version: Number(c.current_version) })),
        defaultId: choice.defaultId,
        rules: choice.rules,
      });
    }
    return sendPage(
      reply,
      status,
      ScorecardsPage({
        staging,
        user: session.user,
        csrfToken: session.csrfToken,
        teams: blocks,
        templates: SCORECARD_TEMPLATES.map((t) => ({ key: t.key, name: t.name, description: t.description })),
        notice: SCORECARD_NOTICES[queryParam(request.query, 'notice')] ?? null,
        error: extra.error ?? null,
        form: extra.form ?? { team: '', template: '', name: '' },
      }),
    );
  }

  app.get('/scorecards', async (request, reply) => listPage(request, reply, 200));

  app.post('/scorecards', async (request, reply) => {
    const session = request.webSession!;
    if (!sessionCsrfValid(request)) return sendExpiredForm(reply, session, staging);
    const form = {
      team: formField(request.body, 'team') ?? '',
      template: formField(request.body, 'template') ?? '',
      name: (formField(request.body, 'name') ?? '').trim(),
    };
    const teams = await viewerTeams(db, viewerOf(session));
    const team = teams.find((t) => t.id === form.team);
    if (!team) return sendNotFound(reply, session, staging);
    const template = SCORECARD_TEMPLATES.find((t) => t.key === form.template);
    if (!template) return listPage(request, reply, 422, { error: 'Choose a template from the list.', form });
    const name = form.name || template.name;
    if ([...name].length > MAX_NAME_CHARS || name.includes('\u0000'))
      return listPage(request, reply, 422, {
        error: `Use a name of at most ${MAX_NAME_CHARS} characters.`,
        form,
      });
    if (await scorecardNameTaken(db, team.id, name))
      return listPage(request, reply, 422, {
        error: `${team.name} already has a scorecard named “${name}”. Choose another name.`,
        form,
      });
    const id = await createScorecard(db, {
      accountId: session.user.accountId,
      teamId: team.id,
      name,
      criteria: structuredClone(template.criteria),
    });
    return reply.redirect(`/scorecards/${id}?notice=created`, 303);
  });

  /** Stored criteria JSON indented for reading and editing (shown as stored if unreadable). */
  function prettyJson(text: string | null): string {
    try {
      return JSON.stringify(JSON.parse(text ?? '[]'), null, 2);
    } catch {
      return text ?? '[]';
    }
  }

  function normalisedJson(text: string | null): string | null {
    try {
      return JSON.stringify(JSON.parse(text ?? '[]'));
    } catch {
      return null;
    }
  }

  /** What a scorecard is chosen for in its team: the default, and the call types whose rule names it. */
  function usesOf(choice: { defaultId: string | null; rules: Record<string, string> }, id: string): string[] {
    const types = Object.entries(choice.rules)
      .filter(([, card]) => card === id)
      .map(([type]) => callTypeLabel(type));
    return [
      ...(choice.defaultId === id ? ['the team default'] : []),
      ...(types.length ? [`the scorecard for ${types.join(', ')} (call type rule)`] : []),
    ];
  }

  async function cardPage(
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    edit?: { name: string; criteriaText: string; errors: string[]; nameError: string | null },
  ) {
    const session = request.webSession!;
    const id = idParam(request);
    const card = id ? await findManageableScorecard(db, viewerOf(session), id) : undefined;
    if (!card) return sendNotFound(reply, session, staging);
    const pretty = prettyJson(card.criteria);
    return sendPage(
      reply,
      status,
      ScorecardPage({
        staging,
        user: session.user,
        csrfToken: session.csrfToken,
        card: { ...card, current_version: Number(card.current_version) },
        criteriaText: edit?.criteriaText ?? pretty,
        name: edit?.name ?? card.name,
        errors: edit?.errors ?? [],
        nameError: edit?.nameError ?? null,
        versions: (await scorecardVersions(db, card.id)).map((v) => ({ ...v, version: Number(v.version) })),
        usedAs: usesOf(await teamChoice(db, card.team_id), card.id),
        notice: SCORECARD_NOTICES[queryParam(request.query, 'notice')] ?? null,
      }),
    );
  }

  app.get('/scorecards/:id', async (request, reply) => cardPage(request, reply, 200));

  app.post('/scorecards/:id', async (request, reply) => {
    const session = request.webSession!;
    if (!sessionCsrfValid(request)) return sendExpiredForm(reply, session, staging);
    const id = idParam(request);
    const card = id ? await findManageableScorecard(db, viewerOf(session), id) : undefined;
    if (!card) return sendNotFound(reply, session, staging);
    const name = (formField(request.body, 'name') ?? '').trim();
    const criteriaText = formField(request.body, 'criteria') ?? '';
    let nameError: string | null = null;
    if (!name || [...name].length > MAX_NAME_CHARS || name.includes('\u0000'))
      nameError = `Enter a name of 1 to ${MAX_NAME_CHARS} characters.`;
    else if (await scorecardNameTaken(db, card.team_id, name, card.id))
      nameError = 'Another scorecard of this team has this name.';
    let errors: string[] = [];
    let criteria: unknown[] = [];
    if (criteriaText.length > MAX_CRITERIA_JSON)
      errors = [`criteria: at most ${MAX_CRITERIA_JSON} characters of JSON`];
    else {
      let parsed: unknown;
      try {
        parsed = JSON.parse(criteriaText);
      } catch (error) {
        errors = [`Not valid JSON: ${(error as Error).message}`];
      }
      if (!errors.length) {
        const checked = validateCriteria(parsed);
        if (checked.ok) criteria = checked.criteria;
        else errors = checked.errors;
      }
    }
    if (nameError || errors.length)
      return cardPage(request, reply, 422, { name, criteriaText, errors, nameError });
    // Versions pin criteria: a save that changes only the name renames the scorecard.
    if (JSON.stringify(criteria) === normalisedJson(card.criteria))
      await updateScorecard(db, card.id, { name });
    else await saveScorecardVersion(db, card.id, { name, criteria });
    return reply.redirect(`/scorecards/${card.id}?notice=saved`, 303);
  });

  // A past version, read-only, with a form that restores it as a new version (the edit form's own POST).
  app.get('/scorecards/:id/versions/:version', async (request, reply) => {
    const session = request.webSession!;
    const id = idParam(request);
    const card = id ? await findManageableScorecard(db, viewerOf(session), id) : undefined;
    const number = Number((request.params as { version?: string }).version);
    const stored =
      card && Number.isInteger(number) && number > 0
        ? await scorecardVersion(db, card.id, number)
        : undefined;
    if (!card || !stored) return sendNotFound(reply, session, staging);
    return sendPage(
      reply,
      200,
      ScorecardVersionPage({
        staging,
        user: session.user,
        csrfToken: session.csrfToken,
        card: { id: card.id, name: card.name, current_version: Number(card.current_version) },
        version: Number(stored.version),
        createdAt: stored.created_at,
        criteriaText: prettyJson(stored.criteria),
        // What the current version changed against this one (stored criteria were validated when saved).
        changes: compareCriteria(
          JSON.parse(stored.criteria) as Criterion[],
          JSON.parse(card.criteria ?? '[]') as Criterion[],
        ),
      }),
    );
  });

  app.post('/scorecards/:id/status', async (request, reply) => {
    const session = request.webSession!;
    if (!sessionCsrfValid(request)) return sendExpiredForm(reply, session, staging);
    const id = idParam(request);
    const card = id ? await findManageableScorecard(db, viewerOf(session), id) : undefined;
    if (!card) return sendNotFound(reply, session, staging);
    const status = formField(request.body, 'status') ?? '';
    if (!['draft', 'published', 'archived'].includes(status)) return cardPage(request, reply, 422);
    await updateScorecard(db, card.id, { status });
    return reply.redirect(`/scorecards/${card.id}?notice=${status}`, 303);
  });

  app.post('/scorecards/teams/:id/choice', async (request, reply) => {
    const session = request.webSession!;
    if (!sessionCsrfValid(request)) return sendExpiredForm(reply, session, staging);
    const teamId = idParam(request);
    const team = teamId ? (await viewerTeams(db, viewerOf(session))).find((t) => t.id === teamId) : undefined;
    if (!team) return sendNotFound(reply, session, staging);
    const cards = await scorecardsOfTeams(db, [team.id]);
    const current = await teamChoice(db, team.id);
    // A published scorecard of this team, or the value already in force (so an archived choice can stay).
    const pick = (field: string, existing: string | null): string | null | 'invalid' => {
      const value = formField(request.body, field) ?? '';
      if (value === '') return null;
      if (!UUID.test(value)) return 'invalid';
      const card = cards.find((c) => c.id === value);
      if (!card) return 'invalid';
      return card.status === 'published' || value === existing ? value : 'invalid';
    };
    const defaultId = pick('default', current.defaultId);
    const rules: Record<string, string> = {};
    let invalid = defaultId === 'invalid';
    for (const t of CALL_TYPES) {
      const chosen = pick(`rule_${t}`, current.rules[t] ?? null);
      if (chosen === 'invalid') invalid = true;
      else if (chosen) rules[t] = chosen;
    }
    if (invalid)
      return listPage(request, reply, 422, { error: `Choose published scorecards of ${team.name}.` });
    await saveTeamChoice(db, team.id, { defaultId: defaultId as string | null, rules });
    return reply.redirect(`/scorecards?notice=rules#team-${team.id}`, 303);
  });
}
